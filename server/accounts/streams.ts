// Whether a principal's event streams may stay open (server/events/stream-principals.ts names the
// principals): its session still live, its key not revoked. The event hub asks this after its listen
// connection comes back, through the port it is handed (server/events/ended-streams.ts).
import type { Db } from '#db/database.ts'
import { findApiKeyByPrefix } from '#server/accounts/repository/api-keys.ts'
import { findLiveSessionAccountId } from '#server/accounts/repository/sessions.ts'

/** False once the principal could not open a stream any more: its session is gone, its key revoked. */
export async function isStreamPrincipalActive(db: Db, principal: string): Promise<boolean> {
  const kind = principal.slice(0, principal.indexOf(':'))
  const value = principal.slice(kind.length + 1)
  if (kind === 'session') return (await findLiveSessionAccountId(db, value)) !== undefined
  if (kind === 'key') {
    const key = await findApiKeyByPrefix(db, value)
    return key !== undefined && key.revoked_at === null
  }
  return true
}
