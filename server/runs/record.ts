// What a run's columns mean: progress (status, step, times, counts) is clear; what was asked (the
// brief), what the steps produced (the checkpoint, with fetched page text), the report and a
// failure's error are sealed with the memory key ring, by the codecs of the runs repository
// (RunSeals), and opened here into the views every surface shows. The topic is there only as a keyed
// hash, for lookups. The SQL is server/runs/repository/runs.ts's.
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Report } from '#server/research/report-types.ts'
import type { RunRecord } from '#server/research/run-context.ts'
import { readStoredReport } from '#server/research/stored-report.ts'
import type { RunError, RunListItem, RunView } from '#server/runs/contract.ts'
import { appendRunEvents, type NewEvent } from '#server/runs/event-log.ts'
import { queueRunJob } from '#server/runs/queue.ts'
import {
  finishRun,
  getRunToStart,
  listRunRows,
  type RunEnded,
  type RunRow,
  type RunSeals,
  type RunSummaryRow,
} from '#server/runs/repository/runs.ts'
import { type Brief, displayBrief } from '#server/vocabulary/brief.ts'
import { QUEUED_STEP, type RunStatus } from '#server/vocabulary/runs.ts'

export type { RunError, RunListItem, RunRow, RunSeals, RunView }

export async function createRun(
  db: Db,
  seals: RunSeals,
  input: {
    accountId: string
    brief: Brief
    topicHash: Buffer
    hasMemory: boolean
    priorRunCount: number
    /** Until when the run may wait in the queue and run: the queue's time and its own limit. */
    deadlineAt: Date
    /** Its own time limit, which counts from when a worker takes it (none: `deadlineAt` is the end). */
    timeLimitSeconds?: number
    series?: { id: string; slot: number }
  },
): Promise<string> {
  // The id is made here: the sealed brief is bound to it.
  const id = randomUUID()
  const brief = seals.sealBrief(input.brief, id)
  // With its first event, in one statement: no worker can log a step before it.
  const started: NewEvent = { type: 'run_started', data: { depth: input.brief.depth, source: input.brief.source } }
  await appendRunEvents(db, seals.event, id, [started], {
    create: {
      id,
      account_id: input.accountId,
      topic_hash: input.topicHash,
      brief_key_id: brief.keyId,
      brief: brief.ciphertext,
      source: input.brief.source,
      has_memory: input.hasMemory,
      prior_run_count: input.priorRunCount,
      deadline_at: input.deadlineAt,
      time_limit_seconds: input.timeLimitSeconds ?? null,
      series_id: input.series?.id ?? null,
      series_slot: input.series?.slot ?? null,
    },
  })
  return id
}

/** What the run view and the run list both show of a run: one brief to open, and an error if it failed. */
function summarizeRun(seals: RunSeals, row: RunSummaryRow) {
  const brief = displayBrief(seals.brief(row))
  const error = seals.error(row)
  return {
    brief,
    summary: {
      runId: row.id,
      topic: brief.topic,
      status: row.status,
      currentStep: row.status === 'running' ? (row.current_step ?? (row.started_at ? null : QUEUED_STEP)) : null,
      source: row.source,
      createdAt: row.created_at.toISOString(),
      finishedAt: row.finished_at?.toISOString() ?? null,
      ...(error ? { error } : {}),
    },
  }
}

/**
 * `publicUrl`: for answers read away from the pages (the API, MCP, Slack and GitHub), whose corpus
 * sources then link to their pages on this server; the pages link them themselves (safeHref).
 */
export function viewRun(seals: RunSeals, row: RunRow, options: { publicUrl?: string } = {}): RunView {
  const { brief, summary } = summarizeRun(seals, row)
  const view: RunView = { ...summary, brief }
  if (row.status === 'complete') {
    const report = openRunReport(seals, row, options)
    if (report) view.report = report
  }
  return view
}

/** A complete run's report as every surface reads it: one decrypt, nothing else of the run opened. */
export function openRunReport(
  seals: RunSeals,
  row: Pick<RunRow, 'id' | 'report_key_id' | 'report'>,
  options: { publicUrl?: string } = {},
): Report | undefined {
  const stored = seals.report(row)
  return stored && readStoredReport(stored, options)
}

/**
 * Newest first. The cursor is the last item's runId; status and topic (its hash from the topic
 * index: the same topic whatever its spelling) filter. One decrypt per run listed.
 */
export async function listRuns(
  db: Db,
  seals: RunSeals,
  accountId: string,
  options: { limit: number; cursor?: string; status?: RunStatus; topicHash?: Buffer },
): Promise<{ runs: RunListItem[]; nextCursor: string | null }> {
  const rows = await listRunRows(db, accountId, options)
  const page = rows.slice(0, options.limit)
  return {
    runs: page.map((row) => {
      const { brief, summary } = summarizeRun(seals, row)
      return { ...summary, depth: brief.depth, recurring: brief.recurring }
    }),
    nextCursor: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null,
  }
}

/** Whose run ended, or undefined when it was no longer running (something else ended it first). */
type Ended = Promise<RunEnded | undefined>

export function completeRun(db: Db, seals: RunSeals, runId: string, report: Report): Ended {
  const sealed = seals.sealReport(report, runId)
  return finishRun(db, runId, {
    status: 'complete',
    report: sealed.ciphertext,
    report_key_id: sealed.keyId,
    usage: JSON.stringify(report.usage),
  })
}

export function failRun(db: Db, seals: RunSeals, runId: string, error: RunError): Ended {
  // The message may quote a provider, or a model's refusal that repeats the brief: sealed too.
  const sealed = seals.sealError(error, runId)
  return finishRun(db, runId, { status: 'failed', error: sealed.ciphertext, error_key_id: sealed.keyId })
}

export function cancelRun(db: Db, runId: string, accountId: string): Ended {
  return finishRun(db, runId, { status: 'cancelled' }, accountId)
}

/** What taking a run needs beyond its row: the account cap (RUNS_PER_ACCOUNT) and the queue. */
export type RunWork = { jobs: Jobs; runsPerAccount: number }

/** How long a run taken beyond its account's cap waits before a worker looks at it again. */
const CAP_RETRY_SECONDS = 5

/**
 * The run the engine works on (its port RunRecord): taken with its topic's memory when it starts
 * from the beginning, moved step by step with its checkpoint, and its progress written while it runs.
 */
export function runRecord(db: Db, seals: RunSeals, work: RunWork): RunRecord {
  return {
    async take(runId, now) {
      const found = await getRunToStart(db, runId, now, work.runsPerAccount)
      const row = found?.run
      if (row?.status !== 'running') return undefined
      if (found?.atCap) {
        // Its account has as many runs going as it may (decision 039): the fetch let it through
        // (workers fetching at the same moment, or a run whose worker died still counting). It
        // waits for one of them to end, at its place among the account's queued runs.
        await queueRunJob(work.jobs, {
          runId,
          accountId: row.account_id,
          accountRunning: work.runsPerAccount,
          startAfter: CAP_RETRY_SECONDS,
        })
        return undefined
      }
      return {
        accountId: row.account_id,
        brief: seals.brief(row),
        // Taken for the first time: its time limit started now (the queue's time is not its own).
        deadlineAt: found?.clockStarted ?? row.deadline_at,
        takenBefore: row.started_at !== null,
        checkpoint: seals.checkpoint(row),
        memoryRead: found?.memoryRead,
      }
    },
    async advance(runId, move) {
      const checkpoint =
        move.checkpointJson === undefined ? undefined : seals.sealCheckpoint(move.checkpointJson, runId)
      const appended = await appendRunEvents(db, seals.event, runId, move.events, { step: move.step, checkpoint })
      return appended.length > 0
    },
    async progress(runId, events) {
      return (await appendRunEvents(db, seals.event, runId, events, { whileRunning: true })).length > 0
    },
  }
}
