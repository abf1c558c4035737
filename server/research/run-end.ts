// Ending a run, the same whoever ends it (its worker, the deadline sweeper, a user's cancel): the
// status, the final event, a recurring brief's next slot and whatever else the end owes (the result
// owed to a Slack thread or pull request commit) together. So nobody sees a finished run whose series
// has not yet scheduled its next run, and a crash in between loses no delivery: the whole end is
// retried or never was. What else an end owes is the composer's to say (server/start.ts): research
// does not know chat.
import type { Db } from '#db/database.ts'
import { appendRunEvent } from '#server/events/run-events.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { KeyRing } from '#server/memory/crypto.ts'
import type { Report } from '#server/research/report-types.ts'
import { cancelRun, completeRun, failRun, type RunError } from '#server/research/runs.ts'
import { afterRunEnded } from '#server/research/series.ts'

/**
 * Called in the transaction that ends a run, after its status and final event are written (jobs it
 * sends there are woken once that commits).
 */
export type RunEndHook = (trx: Db, runId: string) => Promise<void>

export type RunEndDeps = { db: Db; jobs: Jobs; ring: KeyRing; intervalSeconds: number; onEnded: RunEndHook }

export type RunOutcome =
  | { status: 'complete'; report: Report }
  | { status: 'failed'; error: RunError }
  /** At the account's request: only its own run. */
  | { status: 'cancelled'; accountId: string }

/** Ends a running run; false when it had already ended (another worker, a cancel, the sweeper got there first). */
export async function endRun(deps: RunEndDeps, runId: string, outcome: RunOutcome): Promise<boolean> {
  return deps.jobs.transaction(deps.db, async (trx) => {
    if (!(await finish(trx, deps.ring, runId, outcome))) return false
    await appendRunEvent(trx, deps.ring, { runId, type: outcome.status, data: eventData(outcome) })
    // Cancelling one run of a recurring brief does not stop the series: it sleeps until the next.
    await afterRunEnded(trx, deps, runId)
    await deps.onEnded(trx, runId)
    return true
  })
}

function finish(trx: Db, ring: KeyRing, runId: string, outcome: RunOutcome): Promise<boolean> {
  switch (outcome.status) {
    case 'complete':
      return completeRun(trx, ring, runId, outcome.report)
    case 'failed':
      return failRun(trx, ring, runId, outcome.error)
    case 'cancelled':
      return cancelRun(trx, runId, outcome.accountId)
  }
}

function eventData(outcome: RunOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case 'complete':
      return { sources: outcome.report.sources.length, newFindings: outcome.report.delta.newFindings.length }
    case 'failed':
      return { error: outcome.error }
    case 'cancelled':
      return {}
  }
}
