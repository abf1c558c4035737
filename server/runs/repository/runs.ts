// The runs table: SQL only, the database (or the caller's transaction) first. The brief, checkpoint,
// report and error are sealed, each bound to its run: their codecs are createRunSeals', built once
// from the key ring, and a run's row is opened a column at a time, as a view needs it (a list opens
// briefs, not reports; decision 064). What the columns mean (views of a run) is
// server/runs/record.ts's.

import { type Insertable, type QueryCreator, type Selectable, sql, type Updateable } from 'kysely'
import { compiledOnce } from '#db/compiled-once.ts'
import type { Db } from '#db/database.ts'
import type { Database, RunsTable } from '#db/schema.ts'
import type { KeyRing, Sealed } from '#server/crypto/key-ring.ts'
import { sealedColumn, sealedText } from '#server/crypto/sealed-column.ts'
import { after } from '#server/repositories/keyset.ts'
import { type RunError, RunErrorSchema } from '#server/runs/contract.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { UUID } from '#server/text/uuid.ts'
import { liveTopicMemory, type TopicMemoryRow } from '#server/topics/repository.ts'
import { type Brief, StoredBriefSchema } from '#server/vocabulary/brief.ts'
import { type Report, type StoredReport, StoredReportSchema } from '#server/vocabulary/report.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'

export type RunRow = Selectable<RunsTable>

/** What binds each sealed column of a run to its row. */
export const briefData = (runId: string) => `run_brief:${runId}`
export const errorData = (runId: string) => `run_error:${runId}`
const checkpointData = (runId: string) => `run_checkpoint:${runId}`
const reportData = (runId: string) => `run_report:${runId}`

/**
 * The codecs of a run's sealed columns, and of its events' data, built once from the key ring. The
 * brief and the report are read by their stored schemas (their shapes, every version's; upgradeReport
 * reads an older report into today's) and the error by the contract's; the checkpoint is sealed as
 * the JSON the engine serialized (the engine parses it, and runs its steps again when another
 * version wrote it).
 */
export function createRunSeals(ring: KeyRing) {
  const brief = sealedColumn(ring, { name: 'runs.brief', schema: StoredBriefSchema, associatedData: briefData })
  const error = sealedColumn(ring, { name: 'runs.error', schema: RunErrorSchema, associatedData: errorData })
  const checkpoint = sealedText(ring, { name: 'runs.checkpoint', associatedData: checkpointData })
  const report = sealedColumn(ring, { name: 'runs.report', schema: StoredReportSchema, associatedData: reportData })
  return {
    sealBrief: (value: Brief, runId: string): Sealed => brief.seal(value, runId),
    /** The run's brief; throws for a run stored before briefs were sealed and not yet sealed at boot. */
    brief(row: Pick<RunRow, 'id' | 'brief_key_id' | 'brief'>): Brief {
      const value = brief.open({ keyId: row.brief_key_id, ciphertext: row.brief }, row.id)
      if (!value) throw new Error(`run ${row.id} has no sealed brief (was the database upgraded without booting?)`)
      return value
    },
    sealError: (value: RunError, runId: string): Sealed => error.seal(value, runId),
    error: (row: Pick<RunRow, 'id' | 'error_key_id' | 'error'>) =>
      error.open({ keyId: row.error_key_id, ciphertext: row.error }, row.id),
    sealCheckpoint: (json: string, runId: string): Sealed => checkpoint.seal(json, runId),
    /** The checkpoint's JSON as the engine serialized it; undefined when the run has none. */
    checkpoint: (row: Pick<RunRow, 'id' | 'checkpoint_key_id' | 'checkpoint'>): string | undefined =>
      checkpoint.open({ keyId: row.checkpoint_key_id, ciphertext: row.checkpoint }, row.id),
    sealReport: (value: Report, runId: string): Sealed => report.seal(value, runId),
    /** The report as stored, in whichever shape its version wrote: read it with readStoredReport. */
    report: (row: Pick<RunRow, 'id' | 'report_key_id' | 'report'>): StoredReport | undefined =>
      report.open({ keyId: row.report_key_id, ciphertext: row.report }, row.id),
    event: eventDataColumn(ring),
  }
}

export type RunSeals = ReturnType<typeof createRunSeals>

/** What a list of runs shows of each: no checkpoint, no report. */
export const SUMMARY_COLUMNS = [
  'id',
  'brief_key_id',
  'brief',
  'status',
  'current_step',
  'started_at',
  'source',
  'created_at',
  'finished_at',
  'error_key_id',
  'error',
] as const satisfies ReadonlyArray<keyof RunRow>
export type RunSummaryRow = Pick<RunRow, (typeof SUMMARY_COLUMNS)[number]>

/** A run inserted by the statement that appends its first events (server/runs/repository/events.ts). */
export type NewRun = { create: Insertable<RunsTable> }

/** A run's move to its next step, written by the statement that appends the step's events. */
export type RunAdvance = {
  /** The step the run is now in. */
  step: string
  /** The run's new checkpoint, sealed; unchanged when absent. */
  checkpoint?: { keyId: string; ciphertext: Buffer }
}

/**
 * A running run's progress: its events are written only while it is running. The run's row is
 * share-locked, so an end committing meanwhile is waited for and seen: nothing follows a final event.
 */
export type WhileRunning = { whileRunning: true }

// The four ways the statement that appends a run's events starts: each gives the run's id and account
// (nothing when there is no such run, or it is no longer running where that matters).

/** The run, as it is. */
export function runOwner(runId: string) {
  return sql`select id, account_id from runs where id = ${runId}`
}

/** The run inserted. */
export function insertRunReturningOwner(db: Db, run: Insertable<RunsTable>) {
  return db.insertInto('runs').values(run).returning(['id', 'account_id'])
}

/** The run while it is running, share-locked (see WhileRunning). */
export function runningRunOwner(runId: string) {
  return sql`select id, account_id from runs where id = ${runId} and status = 'running' for share`
}

/** The run moved to its next step (and its checkpoint stored), only while it is running. */
export function advanceRunReturningOwner(runId: string, advance: RunAdvance) {
  return sql`update runs set current_step = ${advance.step}, started_at = coalesce(started_at, now()),
    checkpoint = coalesce(${advance.checkpoint?.ciphertext ?? null}::bytea, checkpoint),
    checkpoint_key_id = coalesce(${advance.checkpoint?.keyId ?? null}, checkpoint_key_id)
    where id = ${runId} and status = 'running'
    returning id, account_id`
}

/**
 * What a new run's start says of its topic, in one statement: how many of the account's runs on it
 * completed (its runCount), and the key that sealed its live memory, if it has any (nothing sealed
 * is read).
 */
export async function topicAtStart(
  db: Db,
  accountId: string,
  topicHash: Buffer,
  now: Date,
): Promise<{ completedRuns: number; memoryKeyId: string | null; accountRunning: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('runs')
        .select((count) => count.fn.countAll<number>().as('count'))
        .where('account_id', '=', accountId)
        .where('topic_hash', '=', topicHash)
        .where('status', '=', 'complete')
        .as('completed_runs'),
      liveTopicMemory(db, accountId, topicHash, now).clearSelect().select('topic_memory.key_id').as('memory_key_id'),
      // The account's runs queued or going (runs_account_running_idx): where its next run queues.
      eb
        .selectFrom('runs')
        .select((count) => count.fn.countAll<number>().as('count'))
        .where('account_id', '=', accountId)
        .where('status', '=', 'running')
        .as('account_running'),
    ])
    .executeTakeFirstOrThrow()
  return {
    completedRuns: Number(row.completed_runs),
    memoryKeyId: row.memory_key_id,
    accountRunning: Number(row.account_running),
  }
}

/** The run, when it exists and (with accountId) belongs to that account; malformed ids find nothing. */
export async function getRun(db: Db, runId: string, accountId?: string): Promise<RunRow | undefined> {
  if (!UUID.test(runId)) return undefined
  let query = db.selectFrom('runs').selectAll().where('id', '=', runId)
  if (accountId) query = query.where('account_id', '=', accountId)
  return query.executeTakeFirst()
}

/**
 * A run as its worker starts it, with its topic's live memory (as of `now`) when the run has no
 * checkpoint yet: what its first step reads, in the same statement. `memoryRead` is undefined when
 * nothing was read (a resumed run, or one without a topic hash); its row is null when the topic has
 * no live memory.
 */
export async function getRunToStart(
  db: Db,
  runId: string,
  now: Date,
  /** The most runs one account may have going (RUNS_PER_ACCOUNT); 0: no limit. */
  accountCap: number,
): Promise<
  | {
      run: RunRow
      memoryRead: { topicHash: Buffer; row: TopicMemoryRow | null } | undefined
      /** The deadline set as this take started the run's clock (startRunClock); undefined when it did not. */
      clockStarted: Date | undefined
      /** Not started: its account has `accountCap` runs going already (it waits for one to end). */
      atCap: boolean
    }
  | undefined
> {
  if (!UUID.test(runId)) return undefined
  // The run's clock starts in the same statement that reads it (the row read is as it was before).
  const row = await db
    .with('started', (qb) => startRunClockQuery(qb, runId, accountCap))
    .selectFrom('runs')
    .leftJoin('started', 'started.id', 'runs.id')
    .leftJoin('topics', (join) =>
      join
        .onRef('topics.account_id', '=', 'runs.account_id')
        .onRef('topics.topic_hash', '=', 'runs.topic_hash')
        .on('runs.checkpoint', 'is', null),
    )
    .leftJoin('topic_memory', (join) =>
      join.onRef('topic_memory.topic_id', '=', 'topics.id').on('topic_memory.expires_at', '>', now),
    )
    .selectAll('runs')
    .select([
      'topic_memory.topic_id as memory_topic_id',
      'topic_memory.key_id as memory_key_id',
      'topic_memory.ciphertext as memory_ciphertext',
      'topic_memory.run_count as memory_run_count',
      'topic_memory.urls_indexed as memory_urls_indexed',
      'topic_memory.facts_stored as memory_facts_stored',
      'topic_memory.last_run_at as memory_last_run_at',
      'topic_memory.expires_at as memory_expires_at',
      'topic_memory.updated_at as memory_updated_at',
      'started.deadline_at as started_deadline_at',
      'started.at_cap',
    ])
    .where('runs.id', '=', runId)
    .executeTakeFirst()
  if (!row) return undefined
  const {
    memory_topic_id,
    memory_key_id,
    memory_ciphertext,
    memory_run_count,
    memory_urls_indexed,
    memory_facts_stored,
    memory_last_run_at,
    memory_expires_at,
    memory_updated_at,
    started_deadline_at,
    at_cap,
    ...run
  } = row
  const atCap = at_cap === true
  // At the cap the function's row carries no deadline: the clock did not start.
  const clockStarted = started_deadline_at ?? undefined
  if (atCap || run.checkpoint !== null || run.topic_hash === null) {
    return { run, memoryRead: undefined, clockStarted, atCap }
  }
  const memory =
    memory_topic_id === null
      ? null
      : {
          topic_id: memory_topic_id,
          key_id: memory_key_id as string,
          ciphertext: memory_ciphertext as Buffer,
          run_count: memory_run_count as number,
          urls_indexed: memory_urls_indexed as number,
          facts_stored: memory_facts_stored as number,
          last_run_at: memory_last_run_at as Date,
          expires_at: memory_expires_at as Date,
          updated_at: memory_updated_at as Date,
        }
  return { run, memoryRead: { topicHash: run.topic_hash, row: memory }, clockStarted, atCap }
}

/** What says whether a completed run's view kept in memory is still its view: the keys that sealed it. */
export type RunSeal = Pick<RunRow, 'brief_key_id' | 'report_key_id' | 'series_id'>

/** The run's seal columns when it is the account's (nothing sealed is read); malformed ids find none. */
export async function getRunSeal(db: Db, runId: string, accountId: string): Promise<RunSeal | undefined> {
  if (!UUID.test(runId)) return undefined
  return (await runSeal(db, { runId, accountId }))[0]
}

// Read on every GET of a run (a finished one's view is kept): built and compiled once.
const runSeal = compiledOnce((db, { runId, accountId }: { runId: string; accountId: string }) =>
  db
    .selectFrom('runs')
    .select(['brief_key_id', 'report_key_id', 'series_id'])
    .where('id', '=', runId)
    .where('account_id', '=', accountId),
)

/** The id of the account's run, as stored (nothing else is read); malformed ids find none. */
export async function findRunId(db: Db, runId: string, accountId: string): Promise<string | undefined> {
  if (!UUID.test(runId)) return undefined
  return (await ownRunId(db, { runId, accountId }))[0]?.id
}

// Asked before every event stream of a run: built and compiled once.
const ownRunId = compiledOnce((db, { runId, accountId }: { runId: string; accountId: string }) =>
  db.selectFrom('runs').select('id').where('id', '=', runId).where('account_id', '=', accountId),
)

/**
 * A page of the account's runs, newest first, one more than `limit` when there is a next page. The
 * cursor is the last item's runId; status and topic hash filter.
 */
export async function listRunRows(
  db: Db,
  accountId: string,
  options: { limit: number; cursor?: string; status?: RunStatus; topicHash?: Buffer },
): Promise<RunSummaryRow[]> {
  let query = db.selectFrom('runs').select(SUMMARY_COLUMNS).where('account_id', '=', accountId)
  if (options.status) query = query.where('status', '=', options.status)
  if (options.topicHash) query = query.where('topic_hash', '=', options.topicHash)
  if (options.cursor) {
    const cursor = await getRun(db, options.cursor, accountId)
    if (cursor) query = query.where(after('runs', cursor.id))
  }
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit + 1)
    .execute()
}

/**
 * Moves a running run to its end state; answers whose run it was (and its series and source). Undefined when it was no longer running: another ending (a
 * cancel, the sweeper, a retried job) got there first, and this one must not announce itself.
 * The checkpoint's work is done by then; the report holds what is kept.
 */
export async function finishRun(
  db: Db,
  runId: string,
  values: Updateable<RunsTable>,
  accountId?: string,
): Promise<RunEnded | undefined> {
  let query = db
    .updateTable('runs')
    .set({ current_step: null, finished_at: new Date(), checkpoint: null, checkpoint_key_id: null, ...values })
    .where('id', '=', runId)
    .where('status', '=', 'running')
  if (accountId) query = query.where('account_id', '=', accountId)
  const row = await query
    .returning(['account_id', 'series_id', 'source'])
    .returning(
      sql<string[]>`array(select distinct unnest(w.events) from webhook_endpoints w
        where w.account_id = runs.account_id and w.status = 'active')`.as('webhook_events'),
    )
    .executeTakeFirst()
  return (
    row && { accountId: row.account_id, seriesId: row.series_id, source: row.source, webhookEvents: row.webhook_events }
  )
}

/**
 * Whose run ended, its series, where its brief came from and the event types the account's active
 * webhook endpoints take: what its end owes depends on them (read by the statement that ends it, so
 * an end that owes a webhook nothing asks nothing more).
 */
export type RunEnded = { accountId: string; seriesId: string | null; source: string; webhookEvents: string[] }

/** The run's account and sealed brief alone; undefined when it is gone. */
export async function getRunBrief(
  db: Db,
  runId: string,
): Promise<Pick<RunRow, 'id' | 'account_id' | 'brief_key_id' | 'brief'> | undefined> {
  if (!UUID.test(runId)) return undefined
  return db
    .selectFrom('runs')
    .select(['id', 'account_id', 'brief_key_id', 'brief'])
    .where('id', '=', runId)
    .executeTakeFirst()
}

/** These complete runs' sealed reports, in no order. */
export async function getRunReports(
  db: Db,
  runIds: string[],
): Promise<Array<Pick<RunRow, 'id' | 'report_key_id' | 'report'>>> {
  if (runIds.length === 0) return []
  return db
    .selectFrom('runs')
    .select(['id', 'report_key_id', 'report'])
    .where('id', 'in', runIds)
    .where('status', '=', 'complete')
    .execute()
}

/**
 * A run a worker takes for the first time: its own time limit counts from now, not from when it was
 * queued, so a run that waited behind a thousand others has all of it, unless it waited past the
 * queue's time (RUN_QUEUE_TIMEOUT), after which the limit counted anyway (the deadline it was queued
 * with). A later take (the job retried after a crash) keeps the deadline. The run's deadline;
 * undefined when it was taken before, ended, keeps no limit of its own, or was not started because
 * its account has `accountCap` runs going (0: no cap).
 */
export async function startRunClock(db: Db, runId: string, accountCap = 0): Promise<Date | undefined> {
  return (await startRunClockQuery(db, runId, accountCap).executeTakeFirst())?.deadline_at ?? undefined
}

/**
 * Starts the clock, unless the run's account has `accountCap` runs going (then one row, `at_cap`):
 * the migration's start_run_clock locks the account before it counts, so workers taking two of its
 * runs at once cannot both see room for one. No row: taken before, ended, or with no limit of its own.
 */
function startRunClockQuery(db: QueryCreator<Database>, runId: string, accountCap: number) {
  return db
    .selectFrom(
      sql<{
        id: string
        /** Null at the cap. */
        deadline_at: Date | null
        at_cap: boolean
      }>`start_run_clock(${runId}::uuid, ${accountCap}::integer)`.as('clock'),
    )
    .selectAll()
}

/** Running runs past their deadline (their worker is gone or stuck, or none took it in time). */
export async function overdueRuns(db: Db, now: Date): Promise<Array<{ id: string; taken: boolean }>> {
  const rows = await db
    .selectFrom('runs')
    .select(['id', 'started_at'])
    .where('status', '=', 'running')
    .where('deadline_at', '<', now)
    .execute()
  return rows.map((row) => ({ id: row.id, taken: row.started_at !== null }))
}

/** The id of the run a series started for a slot, if it has one (runs has a unique (series_id, slot)). */
export async function findSeriesSlotRunId(db: Db, seriesId: string, slot: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('runs')
    .select('id')
    .where('series_id', '=', seriesId)
    .where('series_slot', '=', slot)
    .executeTakeFirst()
  return row?.id
}

export async function hasRunningSeriesRun(db: Db, seriesId: string): Promise<boolean> {
  const running = await db
    .selectFrom('runs')
    .select('id')
    .where('series_id', '=', seriesId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  return running !== undefined
}

/** When the series' last run ended; null when none has. */
export async function lastSeriesRunEnd(db: Db, seriesId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('runs')
    .select((eb) => eb.fn.max('finished_at').as('at'))
    .where('series_id', '=', seriesId)
    .executeTakeFirst()
  return row?.at ? new Date(row.at) : null
}
