// The run event log: what a run reports as it goes, kept in Postgres so SSE clients can replay it,
// and announced with NOTIFY (ids only) so the process holding a client's stream hears about it.
// An event's data (search queries, warnings, a failure's message) is sealed with the memory key
// ring; its run, type, step and time are clear.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { RunEvent } from '#server/contracts/run.ts'
import { FINAL_EVENT_TYPES, type RunEventType } from '#server/events/event-types.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'

export { isFinalEvent, type RunEventType } from '#server/events/event-types.ts'
export type { RunEvent }

export const RUN_EVENTS_CHANNEL = 'run_events'
/**
 * Announces `<accountId>` or `<accountId>:<runId>` when something an account's run list shows has
 * changed: a run's event, or a series paused or resumed. Dashboards listen for their account.
 */
export const ACCOUNT_CHANNEL = 'account_changes'

type RunEventRow = {
  id: number
  run_id: string
  type: string
  step: string | null
  created_at: Date
}

export const eventData = (runId: string, type: string) => `run_event:${runId}:${type}`

function toRunEvent(row: RunEventRow, data: Record<string, unknown>): RunEvent {
  return {
    id: row.id,
    runId: row.run_id,
    type: row.type as RunEventType,
    step: row.step,
    data,
    createdAt: row.created_at.toISOString(),
  }
}

/**
 * Appends an event and notifies listeners with `<runId>:<eventId>` when it commits. A per-run lock
 * taken before the id is drawn makes one run's ids commit in increasing order, so a reader that
 * has seen id N can never later find a new row below N (two writers, e.g. a cancel racing a step).
 */
export async function appendRunEvent(
  db: Db,
  ring: KeyRing,
  event: { runId: string; type: RunEventType; step?: string | null; data?: Record<string, unknown> },
): Promise<RunEvent> {
  const data = event.data ?? {}
  // An event without data (a step starting) stores none: nothing to seal.
  const sealed = Object.keys(data).length > 0 ? sealJson(ring, data, eventData(event.runId, event.type)) : undefined
  const { rows } = await sql<RunEventRow>`
    with run_lock as (
      select pg_advisory_xact_lock(hashtextextended(${`run_events:${event.runId}`}, 0))
    ), inserted as (
      insert into run_events (run_id, type, step, data_key_id, data)
      select ${event.runId}::uuid, ${event.type}, ${event.step ?? null}, ${sealed?.keyId ?? null},
        ${sealed?.ciphertext ?? null}::bytea
      from run_lock
      returning id, run_id, type, step, created_at
    )
    select inserted.*,
      pg_notify(${RUN_EVENTS_CHANNEL}, inserted.run_id || ':' || inserted.id),
      pg_notify(${ACCOUNT_CHANNEL}, runs.account_id || ':' || inserted.run_id)
    from inserted join runs on runs.id = inserted.run_id`.execute(db)
  const [row] = rows
  if (!row) throw new Error(`appending a ${event.type} event to run ${event.runId} returned no row`)
  return toRunEvent(row, data)
}

/** Tells the account's open dashboards to refresh (when its transaction, if any, commits). */
export async function notifyAccountChanged(db: Db, accountId: string): Promise<void> {
  await sql`select pg_notify(${ACCOUNT_CHANNEL}, ${accountId}::text)`.execute(db)
}

/** The run's events with an id above `afterId`, oldest first, their data unsealed (one decrypt each). */
export async function readRunEvents(
  db: Db,
  ring: KeyRing,
  runId: string,
  afterId: number,
  limit = 500,
): Promise<RunEvent[]> {
  const rows = await db
    .selectFrom('run_events')
    .select(['id', 'run_id', 'type', 'step', 'data_key_id', 'data', 'created_at'])
    .where('run_id', '=', runId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map((row) =>
    toRunEvent(
      row,
      openColumn<Record<string, unknown>>(ring, row.data_key_id, row.data, eventData(row.run_id, row.type)) ?? {},
    ),
  )
}

/** The id of the run's final event, or null while the run is still going. */
export async function findFinalEventId(db: Db, runId: string): Promise<number | null> {
  const row = await db
    .selectFrom('run_events')
    .select('id')
    .where('run_id', '=', runId)
    .where('type', 'in', [...FINAL_EVENT_TYPES])
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
