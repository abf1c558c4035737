// Cancelling a run at a user's request, the same from every surface (REST, dashboard).
import { appendRunEvent } from '#server/events/run-events.ts'
import { cancelRun } from '#server/research/runs.ts'
import { afterRunEnded, type SeriesDeps } from '#server/research/series.ts'

/**
 * Ends the account's running run as cancelled: false when it was not running (already over, or
 * not the account's). The worker notices before its next step and stops there.
 */
export async function cancelAccountRun(deps: SeriesDeps, runId: string, accountId: string): Promise<boolean> {
  if (!(await cancelRun(deps.db, runId, accountId))) return false
  await appendRunEvent(deps.db, { runId, type: 'cancelled', data: {} })
  // Cancelling one run of a recurring brief does not stop the series: it sleeps until the next.
  await afterRunEnded(deps, runId)
  return true
}
