// Runs in Postgres. Progress (status, step, times, counts) is clear; what was asked (the brief), what
// the steps produced (the checkpoint, with fetched page text), the report and a failure's error are
// sealed with the memory key ring. The topic is there only as a keyed hash, for lookups.
import { randomUUID } from 'node:crypto'
import { type Selectable, sql, type Updateable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { RunsTable } from '#db/schema.ts'
import type { RunError, RunListItem, RunStatus, RunView } from '#server/contracts/run.ts'
import { type KeyRing, openColumn, openJson, sealJson } from '#server/memory/crypto.ts'
import { type Brief, displayBrief } from '#server/research/brief.ts'
import type { Report } from '#server/research/report-types.ts'
import { readStoredReport } from '#server/research/stored-report.ts'
import { UUID } from '#server/text/uuid.ts'

export type { RunError, RunListItem, RunView }
export type RunRow = Selectable<RunsTable>

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
    deadlineAt: Date
    series?: { id: string; slot: number }
  },
): Promise<string> {
  // The id is made here: the sealed brief is bound to it.
  const id = randomUUID()
  const brief = sealJson(ring, input.brief, briefData(id))
  await db
    .insertInto('runs')
    .values({
      id,
      account_id: input.accountId,
      topic_hash: input.topicHash,
      brief_key_id: brief.keyId,
      brief: brief.ciphertext,
      source: input.brief.source,
      has_memory: input.hasMemory,
      prior_run_count: input.priorRunCount,
      deadline_at: input.deadlineAt,
      series_id: input.series?.id ?? null,
      series_slot: input.series?.slot ?? null,
    })
    .execute()
  return id
}

/** Runs of this account and topic that completed: the runCount of a new run's start response. */
export async function countCompletedRuns(db: Db, accountId: string, topicHash: Buffer): Promise<number> {
  const row = await db
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .where('topic_hash', '=', topicHash)
    .where('status', '=', 'complete')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The run, when it exists and (with accountId) belongs to that account; malformed ids find nothing. */
export async function getRun(db: Db, runId: string, accountId?: string): Promise<RunRow | undefined> {
  if (!UUID.test(runId)) return undefined
  let query = db.selectFrom('runs').selectAll().where('id', '=', runId)
  if (accountId) query = query.where('account_id', '=', accountId)
  return query.executeTakeFirst()
}

type SummaryColumns = Pick<
  RunRow,
  | 'id'
  | 'brief_key_id'
  | 'brief'
  | 'status'
  | 'current_step'
  | 'source'
  | 'created_at'
  | 'finished_at'
  | 'error_key_id'
  | 'error'
>
const SUMMARY_COLUMNS = [
  'id',
  'brief_key_id',
  'brief',
  'status',
  'current_step',
  'source',
  'created_at',
  'finished_at',
  'error_key_id',
  'error',
] as const

/** The run's brief, unsealed. */
export function openRunBrief(ring: KeyRing, row: Pick<RunRow, 'id' | 'brief_key_id' | 'brief'>): Brief {
  const brief = openColumn<Brief>(ring, row.brief_key_id, row.brief, briefData(row.id))
  if (!brief) throw new Error(`run ${row.id} has no sealed brief (was the database upgraded without booting?)`)
  return brief
}

/** What the run view and the run list both show of a run: one brief to open, and an error if it failed. */
function summarizeRun(ring: KeyRing, row: SummaryColumns) {
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
  if (row.status === 'complete' && row.report && row.report_key_id) {
    const stored = openJson<Report>(ring, { keyId: row.report_key_id, ciphertext: row.report }, reportData(row.id))
    view.report = readStoredReport(stored, options)
  }
  return view
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
  let query = db.selectFrom('runs').select(SUMMARY_COLUMNS).where('account_id', '=', accountId)
  if (options.status) query = query.where('status', '=', options.status)
  if (options.topicHash) query = query.where('topic_hash', '=', options.topicHash)
  if (options.cursor) {
    const after = await getRun(db, options.cursor, accountId)
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.created_at),
          eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
        ]),
      )
    }
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute()
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
 * Records the step a running run is starting (and, at its first step, when it started). False when
 * the run is no longer running (cancelled, failed by the sweeper): one statement both checks and
 * records, since it sits between every two steps of every run.
 */
export async function startStep(db: Db, runId: string, step: string): Promise<boolean> {
  const result = await db
    .updateTable('runs')
    .set({ current_step: step, started_at: sql`coalesce(started_at, now())` })
    .where('id', '=', runId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export function readCheckpoint<T>(ring: KeyRing, row: RunRow): T | undefined {
  if (!row.checkpoint || !row.checkpoint_key_id) return undefined
  return openJson<T>(ring, { keyId: row.checkpoint_key_id, ciphertext: row.checkpoint }, checkpointData(row.id))
}

export async function writeCheckpoint(db: Db, ring: KeyRing, runId: string, checkpoint: unknown): Promise<void> {
  const sealed = sealJson(ring, checkpoint, checkpointData(runId))
  await db
    .updateTable('runs')
    .set({ checkpoint: sealed.ciphertext, checkpoint_key_id: sealed.keyId })
    .where('id', '=', runId)
    .execute()
}

/**
 * Moves a running run to its end state. False when it was no longer running: another ending (a
 * cancel, the sweeper, a retried job) got there first, and this one must not announce itself.
 * The checkpoint's work is done by then; the report holds what is kept.
 */
async function finishRun(db: Db, runId: string, values: Updateable<RunsTable>, accountId?: string): Promise<boolean> {
  let query = db
    .updateTable('runs')
    .set({ current_step: null, finished_at: new Date(), checkpoint: null, checkpoint_key_id: null, ...values })
    .where('id', '=', runId)
    .where('status', '=', 'running')
  if (accountId) query = query.where('account_id', '=', accountId)
  const result = await query.executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export function completeRun(db: Db, ring: KeyRing, runId: string, report: Report): Promise<boolean> {
  const sealed = sealJson(ring, report, reportData(runId))
  return finishRun(db, runId, {
    status: 'complete',
    report: sealed.ciphertext,
    report_key_id: sealed.keyId,
    usage: JSON.stringify(report.usage),
  })
}

export function failRun(db: Db, ring: KeyRing, runId: string, error: RunError): Promise<boolean> {
  // The message may quote a provider, or a model's refusal that repeats the brief: sealed too.
  const sealed = sealJson(ring, error, errorData(runId))
  return finishRun(db, runId, { status: 'failed', error: sealed.ciphertext, error_key_id: sealed.keyId })
}

export function cancelRun(db: Db, runId: string, accountId: string): Promise<boolean> {
  return finishRun(db, runId, { status: 'cancelled' }, accountId)
}

/** Running runs past their deadline (their worker is gone or stuck). */
export async function overdueRuns(db: Db, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('runs')
    .select('id')
    .where('status', '=', 'running')
    .where('deadline_at', '<', now)
    .execute()
  return rows.map((row) => row.id)
}
