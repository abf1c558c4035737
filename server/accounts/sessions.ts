// Dashboard sessions: a random token in an httpOnly cookie; the database keeps only its SHA-256
// (server/accounts/repository/sessions.ts).
import type { Db } from '#db/database.ts'
import { getAccount } from '#server/accounts/accounts.ts'
import { type Account, SESSION_DAYS } from '#server/accounts/contract.ts'
import {
  deleteSessionByTokenHash,
  findLiveSessionAccountId,
  insertSession,
} from '#server/accounts/repository/sessions.ts'
import { randomToken, sha256 } from '#server/crypto/secrets.ts'
import { announceStreamsEnded, streamPrincipal } from '#server/events/stream-principals.ts'

export async function createSession(db: Db, accountId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken()
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000)
  await insertSession(db, { tokenHash: sha256(token), accountId, expiresAt })
  return { token, expiresAt }
}

export async function getSessionAccount(db: Db, token: string): Promise<Account | undefined> {
  const accountId = await findLiveSessionAccountId(db, sha256(token))
  return accountId ? getAccount(db, accountId) : undefined
}

/** Ends the session, and with it the event streams it opened, in every process. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteSessionByTokenHash(trx, sha256(token))
    await announceStreamsEnded(trx, streamPrincipal.session(token))
  })
}
