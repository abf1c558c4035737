// Ending a run, the same whoever ends it (its worker, the deadline sweeper, a user's cancel): the
// status, the final event, a recurring brief's next slot and whatever else the end owes (the result
// owed to a Slack thread or pull request commit) together. So nobody sees a finished run whose series
// has not yet scheduled its next run, and a crash in between loses no delivery: the whole end is
// retried or never was. What else an end owes is the composer's to say (server/start.ts): research
// does not know chat.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Report } from '#server/research/report-types.ts'
import { appendRunEvents, type NewEvent } from '#server/runs/event-log.ts'
import { cancelRun, completeRun, failRun, type RunError } from '#server/runs/record.ts'
import type { RunEnded, RunSeals } from '#server/runs/repository/runs.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import type { SeriesNotify } from '#server/vocabulary/series.ts'

/** A run's end, as what it owes (chat, webhooks, email) sees it. */
export type RunEnd = {
  runId: string
  accountId: string
  outcome: RunOutcome
  /** The run's recurring brief, if it has one. */
  seriesId: string | null
  /** Where its brief came from (`slack`, `github`, `api`, ...). */
  source: string
  /** The event types the account's active webhook endpoints take (none: no endpoint to ask for). */
  webhookEvents: string[]
  /** Its brief, when whoever ended the run had it open (the engine does); else read where needed. */
  brief?: Brief
  /**
   * Whether to tell anyone: false only for a complete run of a series whose `notify` is 'changes'
   * when its delta has nothing new, updated or contradicted. Such a run is recorded (its status,
   * report and memory), not delivered. Failures and cancellations are always told.
   */
  worthTelling: boolean
}

/**
 * Called in the transaction that ends a run, after its status and final event are written (jobs it
 * sends there are woken once that commits).
 */
export type RunEndHook = (trx: Db, end: RunEnd) => Promise<void>

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
  onEnded: RunEndHook
}

/** What whoever ends a run brings to its end. */
export type RunEndKnown = {
  /** The run's brief, when it is open at hand (the engine's is). */
  brief?: Brief
  /**
   * Events written just before the final one, in the same statement: the engine's last
   * step_finished. A step boundary of its own would store a checkpoint the end clears at once.
   */
  events?: NewEvent[]
  /**
   * The engine's last step (saving memory), done in the end's transaction once the run is known to
   * be ending, so the run and what it taught memory commit together or not at all. It answers the
   * events written after `events` and before the final one. If it throws, nothing of the end is
   * written and endRun throws its error.
   */
  lastStep?: (trx: Db) => Promise<NewEvent[]>
}

export type RunOutcome =
  | { status: 'complete'; report: Report }
  | { status: 'failed'; error: RunError }
  /** At the account's request: only its own run. */
  | { status: 'cancelled'; accountId: string }

/** Ends a running run; false when it had already ended (another worker, a cancel, the sweeper got there first). */
export async function endRun(
  deps: RunEndDeps,
  runId: string,
  outcome: RunOutcome,
  known: RunEndKnown = {},
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

/** How many of a run's claims are new, updated or contradicted: what a person monitoring the topic hears. */
export function changeCount(report: Report): number {
  const { delta } = report
  return delta.newFindings.length + delta.updated.length + delta.contradicted.length
}

export function changedAnything(report: Report): boolean {
  return changeCount(report) > 0
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
