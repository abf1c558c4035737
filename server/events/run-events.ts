// The run event log: what a run reports as it goes, kept in Postgres so SSE clients can replay it,
// and announced with NOTIFY so the process holding a client's stream hears about it.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'
import { FINAL_EVENT_TYPES, type RunEventType } from '#server/events/event-types.ts'

export { isFinalEvent, type RunEventType } from '#server/events/event-types.ts'

export const RUN_EVENTS_CHANNEL = 'run_events'
/**
 * Announces `<accountId>` or `<accountId>:<runId>` when something an account's run list shows has
 * changed: a run's event, or a series paused or resumed. Dashboards listen for their account.
 */
export const ACCOUNT_CHANNEL = 'account_changes'

export type RunEvent = {
  id: number
  runId: string
  type: RunEventType
  step: string | null
  data: Record<string, unknown>
  createdAt: string
}

type RunEventRow = {
  id: number
  run_id: string
  type: string
  step: string | null
  data: Record<string, unknown>
  created_at: Date
}

function toRunEvent(row: RunEventRow): RunEvent {
  return {
    id: row.id,
    runId: row.run_id,
    type: row.type as RunEventType,
    step: row.step,
    data: row.data,
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
  event: { runId: string; type: RunEventType; step?: string | null; data?: Record<string, unknown> },
): Promise<RunEvent> {
  const { rows } = await sql<RunEventRow>`
    with run_lock as (
      select pg_advisory_xact_lock(hashtextextended(${`run_events:${event.runId}`}, 0))
    ), inserted as (
      insert into run_events (run_id, type, step, data)
      select ${event.runId}::uuid, ${event.type}, ${event.step ?? null}, ${JSON.stringify(event.data ?? {})}::jsonb
      from run_lock
      returning id, run_id, type, step, data, created_at
    )
    select inserted.*,
      pg_notify(${RUN_EVENTS_CHANNEL}, inserted.run_id || ':' || inserted.id),
      pg_notify(${ACCOUNT_CHANNEL}, runs.account_id || ':' || inserted.run_id)
    from inserted join runs on runs.id = inserted.run_id`.execute(db)
  const [row] = rows
  if (!row) throw new Error(`appending a ${event.type} event to run ${event.runId} returned no row`)
  return toRunEvent(row)
}

/** Tells the account's open dashboards to refresh (when its transaction, if any, commits). */
export async function notifyAccountChanged(db: Db, accountId: string): Promise<void> {
  await sql`select pg_notify(${ACCOUNT_CHANNEL}, ${accountId}::text)`.execute(db)
}

/** The run's events with an id above `afterId`, oldest first. */
export async function readRunEvents(db: Db, runId: string, afterId: number, limit = 500): Promise<RunEvent[]> {
  const rows = await db
    .selectFrom('run_events')
    .select(['id', 'run_id', 'type', 'step', 'data', 'created_at'])
    .where('run_id', '=', runId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toRunEvent)
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
