// Accounts as the rest of the server sees them, and their passwords: hashed with argon2id here, the
// SQL in server/accounts/repository/accounts.ts.
import type { Db } from '#db/database.ts'
import { type Account, EmailTakenError } from '#server/accounts/contract.ts'
import {
  type AccountRow,
  findAccountCredentials,
  findAccountRowByEmail,
  getAccountRow,
  insertAccount,
} from '#server/accounts/repository/accounts.ts'
import { hashSecret, verifySecret } from '#server/crypto/secrets.ts'

function toAccount(row: AccountRow): Account {
  return { id: row.id, email: row.email, kind: row.kind, createdAt: row.created_at }
}

export async function createAccount(
  db: Db,
  input: { email: string; password?: string; kind?: Account['kind'] },
): Promise<Account> {
  const passwordHash = input.password === undefined ? null : await hashSecret(input.password)
  const row = await insertAccount(db, { email: input.email.trim(), passwordHash, kind: input.kind ?? 'standard' })
  if (!row) throw new EmailTakenError(input.email)
  return toAccount(row)
}

export async function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  const row = await findAccountRowByEmail(db, email.trim())
  return row && toAccount(row)
}

export async function getAccount(db: Db, id: string): Promise<Account | undefined> {
  const row = await getAccountRow(db, id)
  return row && toAccount(row)
}

// Verified against when the email is unknown, so a wrong email costs as much time as a wrong
// password. The hash of a random string nobody kept, with the same parameters as ours.
const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$PuKgukJxoxjLcqG23zjUBw$+pBGwdbjFpd/XUrznvZW9Cp1mpX7pVwrpV/9ladDm5o'

/** The account for these credentials, or undefined; never says which half was wrong. */
export async function authenticateWithPassword(db: Db, email: string, password: string): Promise<Account | undefined> {
  const row = await findAccountCredentials(db, email.trim())
  const ok = await verifySecret(row?.password_hash ?? DECOY_HASH, password)
  return ok && row?.password_hash ? toAccount(row) : undefined
}
