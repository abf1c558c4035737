// What follows the end of a run (complete, failed, cancelled, or swept past its deadline), the same
// whoever ended it: a recurring brief schedules its next run, and a run started from Slack or
// GitHub owes its thread or pull request the result.
import type { Db } from '#db/database.ts'
import { appendRunEvent } from '#server/events/run-events.ts'
import { queueResultDelivery } from '#server/integrations/deliveries.ts'
import { cancelRun } from '#server/research/runs.ts'
import { afterRunEnded, type SeriesDeps } from '#server/research/series.ts'

/**
 * Moves a running run to its end state and appends its final event in one transaction, so a run is
 * never over without the event that ends the streams watching it (a connection lost between two
 * separate writes left streams open for good). False when the run was no longer running.
 */
export async function endRun(
  db: Db,
  runId: string,
  end: {
    type: 'complete' | 'failed' | 'cancelled'
    data: Record<string, unknown>
    finish: (trx: Db) => Promise<boolean>
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await end.finish(trx))) return false
    await appendRunEvent(trx, { runId, type: end.type, data: end.data })
    return true
  })
}

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
  const cancelled = await endRun(deps.db, runId, {
    type: 'cancelled',
    data: {},
    finish: (trx) => cancelRun(trx, runId, accountId),
  })
  if (!cancelled) return false
  await runEnded(deps, runId)
  return true
}
