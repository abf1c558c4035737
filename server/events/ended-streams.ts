// The listening side of server/auth/stream-principals.ts: when a session or key ends (in any process,
// or the CLI), this process closes its event streams. Here, above auth, so that auth (which announces
// ends) knows nothing of the hub or of open streams.
import type { Db } from '#db/database.ts'
import type { ApiKeyVerifier } from '#server/auth/api-keys.ts'
import { isStreamPrincipalActive } from '#server/auth/stream-principals.ts'
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Logger } from '#server/logger.ts'

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
