// The run_events table and the NOTIFYs that announce it: SQL only, the database (or the caller's
// transaction) first. Event data comes and goes sealed as stored; server/events/run-events.ts seals,
// opens and says which events are final. server/events/hub.ts LISTENs on these channels.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'
import { notify } from '#server/repositories/notifications.ts'

/** Announces `<runId>:<eventId>` for each new event, once its transaction commits. */
export const RUN_EVENTS_CHANNEL = 'run_events'
/**
 * Announces `<accountId>` or `<accountId>:<runId>` when something an account's run list shows has
 * changed: a run's event, or a series paused or resumed. Dashboards listen for their account.
 */
export const ACCOUNT_CHANNEL = 'account_changes'

export type RunEventRow = {
  id: number
  run_id: string
  type: string
  step: string | null
  created_at: Date
}

export type SealedRunEventRow = RunEventRow & { data_key_id: string | null; data: Buffer | null }

/**
 * Inserts an event and notifies both channels. A per-run lock taken before the id is drawn makes one
 * run's ids commit in increasing order, so a reader that has seen id N can never later find a new row
 * below N (two writers, e.g. a cancel racing a step).
 */
export async function insertRunEvent(
  db: Db,
  event: { runId: string; type: string; step: string | null; data: { keyId: string; ciphertext: Buffer } | undefined },
): Promise<RunEventRow | undefined> {
  const { rows } = await sql<RunEventRow>`
    with run_lock as (
      select pg_advisory_xact_lock(hashtextextended(${`run_events:${event.runId}`}, 0))
    ), inserted as (
      insert into run_events (run_id, type, step, data_key_id, data)
      select ${event.runId}::uuid, ${event.type}, ${event.step}, ${event.data?.keyId ?? null},
        ${event.data?.ciphertext ?? null}::bytea
      from run_lock
      returning id, run_id, type, step, created_at
    )
    select inserted.*,
      pg_notify(${RUN_EVENTS_CHANNEL}, inserted.run_id || ':' || inserted.id),
      pg_notify(${ACCOUNT_CHANNEL}, runs.account_id || ':' || inserted.run_id)
    from inserted join runs on runs.id = inserted.run_id`.execute(db)
  return rows[0]
}

/** Tells the account's open dashboards to refresh (when its transaction, if any, commits). */
export function notifyAccountChanged(db: Db, accountId: string): Promise<void> {
  return notify(db, ACCOUNT_CHANNEL, accountId)
}

/** The run's events with an id above `afterId`, oldest first, their data sealed. */
export async function listRunEvents(
  db: Db,
  runId: string,
  afterId: number,
  limit: number,
): Promise<SealedRunEventRow[]> {
  return db
    .selectFrom('run_events')
    .select(['id', 'run_id', 'type', 'step', 'data_key_id', 'data', 'created_at'])
    .where('run_id', '=', runId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute()
}

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
