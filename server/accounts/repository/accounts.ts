// The accounts table: SQL only, the database (or the caller's transaction) first. Every kind of
// account is a row here (standard, local, the demo key's and its visitors', trial); what their
// columns mean (password hashes, trial token hashes, visitor ids) is the accounts module's (server/accounts/).
import { type Selectable, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { AccountsTable } from '#db/schema.ts'

const ACCOUNT_COLUMNS = ['id', 'email', 'kind', 'created_at'] as const
export type AccountRow = Pick<Selectable<AccountsTable>, (typeof ACCOUNT_COLUMNS)[number]>

/** Inserts the account; undefined when one has this email already, in any case (the unique index). */
export async function insertAccount(
  db: Db,
  values: { email: string; passwordHash: string | null; kind: AccountRow['kind'] },
): Promise<AccountRow | undefined> {
  return db
    .insertInto('accounts')
    .values({ email: values.email, password_hash: values.passwordHash, kind: values.kind })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning(ACCOUNT_COLUMNS)
    .executeTakeFirst()
}

export async function getAccountRow(db: Db, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst()
}

/** Emails match whatever their case, as the unique index on lower(email) compares them. */
function byEmail(db: Db, email: string) {
  return db.selectFrom('accounts').where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
}

export async function findAccountRowByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return byEmail(db, email).select(ACCOUNT_COLUMNS).executeTakeFirst()
}

/** The account with its password hash (null when it has no password), to check a login against. */
export async function findAccountCredentials(
  db: Db,
  email: string,
): Promise<(AccountRow & { password_hash: string | null }) | undefined> {
  return byEmail(db, email)
    .select([...ACCOUNT_COLUMNS, 'password_hash'])
    .executeTakeFirst()
}

/** Locks the account's row until the transaction `trx` ends. */
export async function lockAccount(trx: Db, accountId: string): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute()
}

/** Holds provisioning (the demo and local accounts) to one transaction at a time, in any process. */
export async function lockProvisioning(trx: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('sextant.provision'))`.execute(trx)
}

export async function findAccountIdByTrialTokenHash(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db.selectFrom('accounts').select('id').where('trial_token_hash', '=', tokenHash).executeTakeFirst()
  return row?.id
}

export async function insertTrialAccount(db: Db, values: { email: string; tokenHash: string }): Promise<string> {
  const row = await db
    .insertInto('accounts')
    .values({ email: values.email, kind: 'trial', trial_token_hash: values.tokenHash })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Writes a demo visitor's account if it is not there yet (before anything that refers to it). */
export async function ensureDemoVisitorAccount(db: Db, visitor: { accountId: string; email: string }): Promise<void> {
  await db
    .insertInto('accounts')
    .values({ id: visitor.accountId, email: visitor.email, kind: 'demo' })
    .onConflict((conflict) => conflict.doNothing())
    .execute()
}
