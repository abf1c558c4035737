// What a run's columns mean: progress (status, step, times, counts) is clear; what was asked (the
// brief), what the steps produced (the checkpoint, with fetched page text), the report and a
// failure's error are sealed with the memory key ring, and opened here into the views every surface
// shows. The topic is there only as a keyed hash, for lookups. The SQL is server/repositories/runs.ts's.
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { RunError, RunListItem, RunView } from '#server/contracts/run.ts'
import { appendRunEvents, type NewEvent } from '#server/events/run-events.ts'
import { type KeyRing, open, openColumn, openJson, seal, sealJson } from '#server/memory/crypto.ts'
import { finishRun, listRunRows, type RunEnded, type RunRow, type RunSummaryRow } from '#server/repositories/runs.ts'
import { CheckpointSchema } from '#server/research/checkpoint.ts'
import type { Report } from '#server/research/report-types.ts'
import { readStoredReport } from '#server/research/stored-report.ts'
import { type Brief, displayBrief } from '#server/vocabulary/brief.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'

export type { RunError, RunListItem, RunRow, RunView }

const checkpointData = (runId: string) => `run_checkpoint:${runId}`
const reportData = (runId: string) => `run_report:${runId}`
export const briefData = (runId: string) => `run_brief:${runId}`
export const errorData = (runId: string) => `run_error:${runId}`

export async function createRun(
  db: Db,
  ring: KeyRing,
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
  const brief = sealJson(ring, input.brief, briefData(id))
  // With its first event, in one statement: no worker can log a step before it.
  const started: NewEvent = { type: 'run_started', data: { depth: input.brief.depth, source: input.brief.source } }
  await appendRunEvents(db, ring, id, [started], {
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

/** The run's brief, unsealed. */
export function openRunBrief(ring: KeyRing, row: Pick<RunRow, 'id' | 'brief_key_id' | 'brief'>): Brief {
  const brief = openColumn<Brief>(ring, row.brief_key_id, row.brief, briefData(row.id))
  if (!brief) throw new Error(`run ${row.id} has no sealed brief (was the database upgraded without booting?)`)
  return brief
}

/** What the run view and the run list both show of a run: one brief to open, and an error if it failed. */
function summarizeRun(ring: KeyRing, row: RunSummaryRow) {
  const brief = displayBrief(openRunBrief(ring, row))
  const error = openColumn<RunError>(ring, row.error_key_id, row.error, errorData(row.id))
  return {
    brief,
    summary: {
      runId: row.id,
      topic: brief.topic,
      status: row.status,
      currentStep: row.status === 'running' ? row.current_step : null,
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
export function viewRun(ring: KeyRing, row: RunRow, options: { publicUrl?: string } = {}): RunView {
  const { brief, summary } = summarizeRun(ring, row)
  const view: RunView = { ...summary, brief }
  if (row.status === 'complete') {
    const report = openRunReport(ring, row, options)
    if (report) view.report = report
  }
  return view
}

/** A complete run's report as every surface reads it: one decrypt, nothing else of the run opened. */
export function openRunReport(
  ring: KeyRing,
  row: Pick<RunRow, 'id' | 'report_key_id' | 'report'>,
  options: { publicUrl?: string } = {},
): Report | undefined {
  if (!row.report || !row.report_key_id) return undefined
  const stored = openJson<Report>(ring, { keyId: row.report_key_id, ciphertext: row.report }, reportData(row.id))
  return readStoredReport(stored, options)
}

/**
 * Newest first. The cursor is the last item's runId; status and topic (its hash from the topic
 * index: the same topic whatever its spelling) filter. One decrypt per run listed.
 */
export async function listRuns(
  db: Db,
  ring: KeyRing,
  accountId: string,
  options: { limit: number; cursor?: string; status?: RunStatus; topicHash?: Buffer },
): Promise<{ runs: RunListItem[]; nextCursor: string | null }> {
  const rows = await listRunRows(db, accountId, options)
  const page = rows.slice(0, options.limit)
  return {
    runs: page.map((row) => {
      const { brief, summary } = summarizeRun(ring, row)
      return { ...summary, depth: brief.depth, recurring: brief.recurring }
    }),
    nextCursor: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null,
  }
}

/**
 * The run's checkpoint, parsed: the outputs of the steps that ended, or the issues that keep this
 * version from reading it (another version wrote it in another shape). Undefined when it has none.
 */
export function readCheckpoint(ring: KeyRing, row: RunRow) {
  if (!row.checkpoint || !row.checkpoint_key_id) return undefined
  const sealed = { keyId: row.checkpoint_key_id, ciphertext: row.checkpoint }
  return CheckpointSchema.safeParse(JSON.parse(open(ring, sealed, checkpointData(row.id)).toString('utf8')))
}

/**
 * A run's checkpoint as it is sealed: each step's output is serialized once, when a boundary first
 * stores it, instead of the whole (growing) checkpoint at every step. The last step's output goes
 * to the run's end, not to a boundary, and is serialized only if the end fails and a boundary must
 * keep it. A step's output is not changed once added.
 */
export function checkpointJson(initial: object): { add: (step: string, output: unknown) => void; json: () => string } {
  const parts = new Map<string, { output: unknown; json?: string }>(
    Object.entries(initial).map(([step, output]) => [step, { output }]),
  )
  return {
    add: (step, output) => void parts.set(step, { output }),
    json: () => {
      const members = [...parts].map(([step, part]) => {
        part.json ??= JSON.stringify(part.output)
        return `${JSON.stringify(step)}:${part.json}`
      })
      return `{${members.join(',')}}`
    },
  }
}

/**
 * One statement per step boundary: the finished step's checkpoint (its JSON, from checkpointJson)
 * and events, the next step and its events. False when the run is no longer running (cancelled, or
 * failed by the sweeper): nothing was written.
 */
export async function advanceRun(
  db: Db,
  ring: KeyRing,
  runId: string,
  move: { step: string; checkpointJson?: string; events: NewEvent[] },
): Promise<boolean> {
  const checkpoint =
    move.checkpointJson === undefined ? undefined : seal(ring, Buffer.from(move.checkpointJson), checkpointData(runId))
  const appended = await appendRunEvents(db, ring, runId, move.events, { step: move.step, checkpoint })
  return appended.length > 0
}

/** Whose run ended, or undefined when it was no longer running (something else ended it first). */
type Ended = Promise<RunEnded | undefined>

export function completeRun(db: Db, ring: KeyRing, runId: string, report: Report): Ended {
  const sealed = sealJson(ring, report, reportData(runId))
  return finishRun(db, runId, {
    status: 'complete',
    report: sealed.ciphertext,
    report_key_id: sealed.keyId,
    usage: JSON.stringify(report.usage),
  })
}

export function failRun(db: Db, ring: KeyRing, runId: string, error: RunError): Ended {
  // The message may quote a provider, or a model's refusal that repeats the brief: sealed too.
  const sealed = sealJson(ring, error, errorData(runId))
  return finishRun(db, runId, { status: 'failed', error: sealed.ciphertext, error_key_id: sealed.keyId })
}

export function cancelRun(db: Db, runId: string, accountId: string): Ended {
  return finishRun(db, runId, { status: 'cancelled' }, accountId)
}
