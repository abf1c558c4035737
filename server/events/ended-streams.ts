// The listening side of server/events/stream-principals.ts: when a session or key ends (in any
// process, or the CLI), this process closes its event streams. The accounts module, which announces
// ends, knows nothing of the hub or of open streams; what this asks of it (is a principal still
// active; forget a revoked key) it is handed as ports (decision 063).
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Logger } from '#server/logger.ts'

/** What the accounts module says of a principal (a port, filled by server/services.ts). */
export type StreamPrincipals = {
  /** False once the principal could not open a stream any more: its session gone, its key revoked. */
  isActive: (principal: string) => Promise<boolean>
  /** Drops this process's cached verifications of a key (announced as revoked by any process). */
  forgetKey: (prefix: string) => void
}

/**
 * Closes this process's streams of each principal announced as ended, and forgets a revoked key's
 * cached verification so a reconnect is refused at once. After the hub's listen connection comes
 * back (announcements may have been missed), checks every principal that has streams open.
 */
export function closeStreamsWhenEnded(deps: {
  hub: EventHub
  streams: OpenStreams
  principals: StreamPrincipals
  log: Logger
}): () => void {
  const { hub, streams, principals, log } = deps
  async function recheck() {
    for (const principal of streams.principals()) {
      if (!(await principals.isActive(principal))) streams.closeAll(principal)
    }
  }
  return hub.subscribeStreamsEnded((principal) => {
    if (principal === null) {
      recheck().catch((error) => log.warn({ err: error }, 'checking open streams after a reconnect failed'))
      return
    }
    if (principal.startsWith('key:')) principals.forgetKey(principal.slice(4))
    const closed = streams.closeAll(principal)
    if (closed > 0)
      log.info({ closed, kind: principal.split(':')[0] }, 'closed the event streams of an ended principal')
  })
}
