// The sessions table: SQL only, the database (or the caller's transaction) first. A session is
// stored by its token's hash; server/accounts/sessions.ts makes the tokens and hashes them.
import type { Db } from '#db/database.ts'

export async function insertSession(
  db: Db,
  session: { tokenHash: string; accountId: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ token_hash: session.tokenHash, account_id: session.accountId, expires_at: session.expiresAt })
    .execute()
}

/** The account of the session with this token hash, unless it has expired. */
export async function findLiveSessionAccountId(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('account_id')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', new Date())
    .executeTakeFirst()
  return row?.account_id
}

export async function deleteSessionByTokenHash(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute()
}
