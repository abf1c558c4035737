// Whose event streams count together and end together: a dashboard session, a trial visitor, an API
// key, or (local development auth, no key) an account. Logging out and revoking a key announce the
// end over NOTIFY when they commit, so every web process closes that principal's streams, whichever
// process (or the CLI) did it.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { ApiKeyVerifier } from '#server/auth/api-keys.ts'
import { sha256 } from '#server/auth/secrets.ts'
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Logger } from '#server/logger.ts'

/** Carries a principal whose streams must end; the hub listens to it. */
export const STREAMS_ENDED_CHANNEL = 'streams_ended'

export const streamPrincipal = {
  /** By the token's hash, as the sessions table keeps it. */
  session: (token: string) => `session:${sha256(token)}`,
  trial: (accountId: string) => `trial:${accountId}`,
  /** An API caller: its key, or its account under local development auth. */
  api: (caller: { keyPrefix?: string; accountId: string }) =>
    caller.keyPrefix ? `key:${caller.keyPrefix}` : `account:${caller.accountId}`,
}

/** Tells every process to close the principal's streams (when the transaction `db` is in commits). */
export async function announceStreamsEnded(db: Db, principal: string): Promise<void> {
  await sql`select pg_notify(${STREAMS_ENDED_CHANNEL}, ${principal}::text)`.execute(db)
}

/** False once the principal could not open a stream any more: its session is gone, its key revoked. */
export async function isStreamPrincipalActive(db: Db, principal: string): Promise<boolean> {
  const kind = principal.slice(0, principal.indexOf(':'))
  const value = principal.slice(kind.length + 1)
  if (kind === 'session') {
    const row = await db
      .selectFrom('sessions')
      .select('token_hash')
      .where('token_hash', '=', value)
      .where('expires_at', '>', new Date())
      .executeTakeFirst()
    return row !== undefined
  }
  if (kind === 'key') {
    const row = await db
      .selectFrom('api_keys')
      .select('id')
      .where('prefix', '=', value)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return row !== undefined
  }
  return true
}

/**
 * Closes this process's streams of each principal announced as ended, and forgets a revoked key's
 * cached verification so a reconnect is refused at once. After the hub's listen connection comes
 * back (announcements may have been missed), checks every principal that has streams open.
 */
export function closeStreamsWhenEnded(deps: {
  hub: EventHub
  streams: OpenStreams
  db: Db
  apiKeys: ApiKeyVerifier
  log: Logger
}): () => void {
  const { hub, streams, db, apiKeys, log } = deps
  async function recheck() {
    for (const principal of streams.principals()) {
      if (!(await isStreamPrincipalActive(db, principal))) streams.closeAll(principal)
    }
  }
  return hub.subscribeStreamsEnded((principal) => {
    if (principal === null) {
      recheck().catch((error) => log.warn({ err: error }, 'checking open streams after a reconnect failed'))
      return
    }
    if (principal.startsWith('key:')) apiKeys.forget(principal.slice(4))
    const closed = streams.closeAll(principal)
    if (closed > 0)
      log.info({ closed, kind: principal.split(':')[0] }, 'closed the event streams of an ended principal')
  })
}
