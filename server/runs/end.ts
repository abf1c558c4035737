// Ending a run, the same whoever ends it (its worker, the deadline sweeper, a user's cancel): the
// status, the final event, a recurring brief's next slot and whatever else the end owes (the result
// owed to a Slack thread or pull request commit) together. So nobody sees a finished run whose series
// has not yet scheduled its next run, and a crash in between loses no delivery: the whole end is
// retried or never was. What else an end owes is the composer's to say (server/start.ts): research
// does not know chat.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { changedAnything, type RunEndHook, type RunEndKnown, type RunOutcome } from '#server/runs/contract.ts'
import { appendRunEvents } from '#server/runs/event-log.ts'
import { cancelRun, completeRun, failRun } from '#server/runs/record.ts'
import type { RunEnded, RunSeals } from '#server/runs/repository/runs.ts'
import type { SeriesNotify } from '#server/vocabulary/series.ts'

/**
 * A run of a series ended, in the transaction that ends it: the series sleeps until its next slot.
 * Answers the series (whether its quiet runs are delivered); undefined when it is gone.
 */
export type SeriesAfterRun = {
  afterRunEnded(trx: Db, runId: string, seriesId: string): Promise<{ id: string; notify: SeriesNotify } | undefined>
}

export type RunEndDeps = {
  db: Db
  jobs: Jobs
  /** The run's sealed columns' codecs (the runs repository's). */
  seals: RunSeals
  /** What a run's end asks of its series (the series module's; a port, decision 063). */
  series: SeriesAfterRun
  onEnded: RunEndHook<Db>
}

/** Ends a running run; false when it had already ended (another worker, a cancel, the sweeper got there first). */
export async function endRun(
  deps: RunEndDeps,
  runId: string,
  outcome: RunOutcome,
  known: RunEndKnown<Db> = {},
): Promise<boolean> {
  return deps.jobs.transaction(deps.db, async (trx) => {
    const ended = await finish(trx, deps.seals, runId, outcome)
    if (!ended) return false
    // Cancelling one run of a recurring brief does not stop the series: it sleeps until the next.
    const series = ended.seriesId ? await deps.series.afterRunEnded(trx, runId, ended.seriesId) : undefined
    const worthTelling =
      series?.notify !== 'changes' || outcome.status !== 'complete' || changedAnything(outcome.report)
    const data = { ...eventData(outcome), ...(series ? { delivered: worthTelling } : {}) }
    const lastStep = (await known.lastStep?.(trx)) ?? []
    await appendRunEvents(trx, deps.seals.event, runId, [
      ...(known.events ?? []),
      ...lastStep,
      { type: outcome.status, data },
    ])
    await deps.onEnded(trx, {
      runId,
      accountId: ended.accountId,
      outcome,
      seriesId: series?.id ?? null,
      source: ended.source,
      webhookEvents: ended.webhookEvents,
      brief: known.brief,
      worthTelling,
    })
    return true
  })
}

function finish(trx: Db, seals: RunSeals, runId: string, outcome: RunOutcome): Promise<RunEnded | undefined> {
  switch (outcome.status) {
    case 'complete':
      return completeRun(trx, seals, runId, outcome.report)
    case 'failed':
      return failRun(trx, seals, runId, outcome.error)
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
