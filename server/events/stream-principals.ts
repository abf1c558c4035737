// Whose event streams count together and end together: a dashboard session, a trial visitor, an API
// key, or (local development auth, no key) an account. Logging out and revoking a key announce the
// end over NOTIFY when they commit, so every web process closes that principal's streams, whichever
// process (or the CLI) did it; server/events/ended-streams.ts closes them. Whether a principal is
// still active is the accounts module's to say (its sessions and keys: server/accounts/streams.ts).
import type { Db } from '#db/database.ts'
import { sha256 } from '#server/crypto/secrets.ts'
import { notify } from '#server/repositories/notifications.ts'

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
  await notify(db, STREAMS_ENDED_CHANNEL, principal)
}
