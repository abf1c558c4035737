// What follows the end of a run (complete, failed, cancelled, or swept past its deadline), the same
// whoever ended it: a recurring brief schedules its next run, and a run started from Slack or
// GitHub owes its thread or pull request the result.
import { appendRunEvent } from '#server/events/run-events.ts'
import { queueResultDelivery } from '#server/integrations/deliveries.ts'
import { cancelRun } from '#server/research/runs.ts'
import { afterRunEnded, type SeriesDeps } from '#server/research/series.ts'

export async function runEnded(deps: SeriesDeps, runId: string): Promise<void> {
  // Cancelling one run of a recurring brief does not stop the series: it sleeps until the next.
  await afterRunEnded(deps, runId)
  await queueResultDelivery(deps.db, deps.jobs, runId)
}

/**
 * Ends the account's running run as cancelled: false when it was not running (already over, or
 * not the account's). The worker notices before its next step and stops there.
 */
export async function cancelAccountRun(deps: SeriesDeps, runId: string, accountId: string): Promise<boolean> {
  if (!(await cancelRun(deps.db, runId, accountId))) return false
  await appendRunEvent(deps.db, { runId, type: 'cancelled', data: {} })
  await runEnded(deps, runId)
  return true
}
