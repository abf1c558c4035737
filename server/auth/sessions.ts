// Dashboard sessions: a random token in an httpOnly cookie; the database keeps only its SHA-256.
import type { Db } from '#db/database.ts'
import { type Account, getAccount } from '#server/auth/accounts.ts'
import { randomToken, sha256 } from '#server/auth/secrets.ts'
import { announceStreamsEnded, streamPrincipal } from '#server/auth/stream-principals.ts'

export const SESSION_COOKIE = 'sx_session'
const SESSION_DAYS = 30

export async function createSession(db: Db, accountId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken()
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000)
  await db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), account_id: accountId, expires_at: expiresAt })
    .execute()
  return { token, expiresAt }
}

export async function getSessionAccount(db: Db, token: string): Promise<Account | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('account_id')
    .where('token_hash', '=', sha256(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst()
  return row ? getAccount(db, row.account_id) : undefined
}

/** Ends the session, and with it the event streams it opened, in every process. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sessions').where('token_hash', '=', sha256(token)).execute()
    await announceStreamsEnded(trx, streamPrincipal.session(token))
  })
}

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return decodeURIComponent(value.join('='))
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
