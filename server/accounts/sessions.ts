// Dashboard sessions: a random token in an httpOnly cookie; the database keeps only its SHA-256
// (server/repositories/sessions.ts).
import type { Db } from '#db/database.ts'
import { type Account, getAccount } from '#server/auth/accounts.ts'
import { randomToken, sha256 } from '#server/auth/secrets.ts'
import { announceStreamsEnded, streamPrincipal } from '#server/auth/stream-principals.ts'
import { deleteSessionByTokenHash, findLiveSessionAccountId, insertSession } from '#server/repositories/sessions.ts'

export const SESSION_COOKIE = 'sx_session'
const SESSION_DAYS = 30

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

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key !== name) continue
    try {
      return decodeURIComponent(value.join('='))
    } catch {
      return undefined // malformed percent-encoding: no such cookie, not an error
    }
  }
  return undefined
}

/** Set-Cookie for a session; `secure` off only for plain-HTTP local use. */
export function sessionCookie(token: string, options: { expiresAt: Date; secure: boolean }): string {
  const attributes = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  attributes.push(`Expires=${options.expiresAt.toUTCString()}`)
  if (options.secure) attributes.push('Secure')
  return attributes.join('; ')
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT`
}
