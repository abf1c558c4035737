// The run_events table and the NOTIFYs that announce it: SQL only, the database (or the caller's
// transaction) first, and the format of the notifications. The statement that appends a run's events
// may first insert or advance the run, with the runs repository's own SQL for it. Event data comes and
// goes sealed as stored: server/runs/event-log.ts seals and opens it with its codec
// (server/runs/repository/event-data.ts) and says which events are final.
// server/events/hub.ts LISTENs on these channels.
import { sql } from 'kysely'
import { compiledOnce } from '#db/compiled-once.ts'
import type { Db } from '#db/database.ts'
import { ACCOUNT_CHANNEL, RUN_EVENTS_CHANNEL, type RunEventRow } from '#server/repositories/notifications.ts'
import {
  advanceRunReturningOwner,
  insertRunReturningOwner,
  type NewRun,
  type RunAdvance,
  runningRunOwner,
  runOwner,
  type WhileRunning,
} from '#server/runs/repository/runs.ts'
import { FINAL_EVENT_TYPES, type RunEventType } from '#server/vocabulary/runs.ts'

export type { RunEventRow }

export type SealedRunEventRow = RunEventRow & { data_key_id: string | null; data: Buffer | null }

/** An event to insert: its data sealed as stored, or none. */
export type NewRunEvent = {
  type: string
  step: string | null
  data: { keyId: string; ciphertext: Buffer } | undefined
}

/**
 * Event types that change what an account's run list shows (a run's status and current step): only
 * these notify ACCOUNT_CHANNEL. A query finishing changes nothing a list shows.
 */
export const LIST_EVENT_TYPES = ['run_started', 'step_started', ...FINAL_EVENT_TYPES] satisfies RunEventType[]

/** A NOTIFY payload is at most 8000 bytes: events whose sealed data is larger are announced without it. */
const MAX_PAYLOAD_DATA_BYTES = 5000

/**
 * Inserts a run's events, in order, and announces each on both channels, in one statement. A per-run
 * lock taken before the ids are drawn makes one run's ids commit in increasing order, so a reader
 * that has seen id N can never later find a new row below N (two writers, e.g. a cancel racing a
 * step). Each RUN_EVENTS_CHANNEL payload carries the event itself (see parseEventNotification), so
 * a listener in sync with the run delivers it without reading the table.
 *
 * With a RunAdvance, the same statement first moves the run to its next step (and stores its
 * checkpoint), and only while it is running: a cancelled run gets neither the move nor the events,
 * and the answer is empty. That is one round trip per step boundary. With a NewRun, it first
 * inserts the run (whose id must be runId): a run and its first event are one round trip. With
 * WhileRunning, the events are written only while the run is running (the answer is empty if not).
 */
export async function insertRunEvents(
  db: Db,
  runId: string,
  events: NewRunEvent[],
  run?: RunAdvance | NewRun | WhileRunning,
): Promise<RunEventRow[]> {
  const source = !run
    ? runOwner(runId)
    : 'create' in run
      ? insertRunReturningOwner(db, run.create)
      : 'whileRunning' in run
        ? runningRunOwner(runId)
        : advanceRunReturningOwner(runId, run)
  const { rows } = await sql<RunEventRow>`
    with run as (${source}), run_lock as (
      select run.id, run.account_id, pg_advisory_xact_lock(hashtextextended(${`run_events:${runId}`}, 0))
      from run
    ), inserted as (
      insert into run_events (run_id, type, step, data_key_id, data)
      select run_lock.id, e.type, e.step, e.key_id, e.data
      from run_lock, unnest(${events.map((event) => event.type)}::text[], ${events.map((event) => event.step)}::text[],
        ${events.map((event) => event.data?.keyId ?? null)}::text[],
        ${events.map((event) => event.data?.ciphertext ?? null)}::bytea[]) with ordinality as e(type, step, key_id, data, n)
      order by e.n
      returning id, run_id, type, step, data_key_id, data, created_at
    )
    select e.id, e.run_id, e.type, e.step, e.created_at,
      pg_notify(${RUN_EVENTS_CHANNEL}, concat_ws(':', e.run_id, e.id, e.type, coalesce(e.step, ''),
        floor(extract(epoch from e.created_at) * 1000), coalesce(e.data_key_id, ''),
        case when e.data is null then '' when octet_length(e.data) > ${MAX_PAYLOAD_DATA_BYTES} then '!'
          else translate(encode(e.data, 'base64'), E'\n', '') end)),
      case when e.type = any(${LIST_EVENT_TYPES}::text[])
        then pg_notify(${ACCOUNT_CHANNEL}, run_lock.account_id || ':' || e.run_id) end
    from inserted e, run_lock order by e.id`.execute(db)
  return rows
}

/** The run's events with an id above `afterId`, oldest first, their data sealed. */
export async function listRunEvents(
  db: Db,
  runId: string,
  afterId: number,
  limit: number,
): Promise<SealedRunEventRow[]> {
  return runEventsAfter(db, { runId, afterId, limit })
}

// Every event stream's replay and every read of the hub: built and compiled once.
const runEventsAfter = compiledOnce(
  (db, { runId, afterId, limit }: { runId: string; afterId: number; limit: number }) =>
    db
      .selectFrom('run_events')
      .select(['id', 'run_id', 'type', 'step', 'data_key_id', 'data', 'created_at'])
      .where('run_id', '=', runId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit),
)

/** The id of the run's first event of one of these types, or null when it has none. */
export async function findFirstEventId(db: Db, runId: string, types: readonly string[]): Promise<number | null> {
  const row = await db
    .selectFrom('run_events')
    .select('id')
    .where('run_id', '=', runId)
    .where('type', 'in', [...types])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  return row?.id ?? null
}

/** Deletes run events older than `before`; how many went. */
export async function purgeRunEvents(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('run_events').where('created_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
