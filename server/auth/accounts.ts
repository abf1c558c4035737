import { type Selectable, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { AccountsTable } from '#db/schema.ts'
import { hashSecret, verifySecret } from '#server/auth/secrets.ts'

export type Account = { id: string; email: string; kind: 'standard' | 'local' | 'demo' | 'trial'; createdAt: Date }

export const LOCAL_ACCOUNT_EMAIL = 'you@sextant.local'
export const DEMO_ACCOUNT_EMAIL = 'demo@sextant.local'

function toAccount(row: Pick<Selectable<AccountsTable>, 'id' | 'email' | 'kind' | 'created_at'>): Account {
  return { id: row.id, email: row.email, kind: row.kind, createdAt: row.created_at }
}

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists.`)
    this.name = 'EmailTakenError'
  }
}

export async function createAccount(
  db: Db,
  input: { email: string; password?: string; kind?: Account['kind'] },
): Promise<Account> {
  const passwordHash = input.password === undefined ? null : await hashSecret(input.password)
  const row = await db
    .insertInto('accounts')
    .values({ email: input.email.trim(), password_hash: passwordHash, kind: input.kind ?? 'standard' })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning(['id', 'email', 'kind', 'created_at'])
    .executeTakeFirst()
  if (!row) throw new EmailTakenError(input.email)
  return toAccount(row)
}

export async function findAccountByEmail(db: Db, email: string): Promise<Account | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'email', 'kind', 'created_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst()
  return row && toAccount(row)
}

export async function getAccount(db: Db, id: string): Promise<Account | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'email', 'kind', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row && toAccount(row)
}

// Verified against when the email is unknown, so a wrong email costs as much time as a wrong
// password. The hash of a random string nobody kept, with the same parameters as ours.
const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$PuKgukJxoxjLcqG23zjUBw$+pBGwdbjFpd/XUrznvZW9Cp1mpX7pVwrpV/9ladDm5o'

/** The account for these credentials, or undefined; never says which half was wrong. */
export async function authenticateWithPassword(db: Db, email: string, password: string): Promise<Account | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['id', 'email', 'kind', 'created_at', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst()
  const ok = await verifySecret(row?.password_hash ?? DECOY_HASH, password)
  return ok && row?.password_hash ? toAccount(row) : undefined
}

export async function setPassword(db: Db, accountId: string, password: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: await hashSecret(password) })
    .where('id', '=', accountId)
    .execute()
}
