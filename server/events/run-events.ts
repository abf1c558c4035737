// The run event log: what a run reports as it goes, kept in Postgres so SSE clients can replay it,
// and announced with NOTIFY (ids only) so the process holding a client's stream hears about it.
// An event's data (search queries, warnings, a failure's message) is sealed with the memory key
// ring; its run, type, step and time are clear. The SQL is server/repositories/run-events.ts's.

import type { Db } from '#db/database.ts'
import type { RunEvent } from '#server/contracts/run.ts'
import { FINAL_EVENT_TYPES, type RunEventType } from '#server/events/event-types.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'
import { findFirstEventId, insertRunEvent, listRunEvents, type RunEventRow } from '#server/repositories/run-events.ts'

export { isFinalEvent, type RunEventType } from '#server/events/event-types.ts'
export type { RunEvent }

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
 * Appends an event and notifies listeners with `<runId>:<eventId>` when it commits; one run's ids
 * commit in increasing order (server/repositories/run-events.ts says how).
 */
export async function appendRunEvent(
  db: Db,
  ring: KeyRing,
  event: { runId: string; type: RunEventType; step?: string | null; data?: Record<string, unknown> },
): Promise<RunEvent> {
  const data = event.data ?? {}
  // An event without data (a step starting) stores none: nothing to seal.
  const sealed = Object.keys(data).length > 0 ? sealJson(ring, data, eventData(event.runId, event.type)) : undefined
  const row = await insertRunEvent(db, { runId: event.runId, type: event.type, step: event.step ?? null, data: sealed })
  if (!row) throw new Error(`appending a ${event.type} event to run ${event.runId} returned no row`)
  return toRunEvent(row, data)
}

/** The run's events with an id above `afterId`, oldest first, their data unsealed (one decrypt each). */
export async function readRunEvents(
  db: Db,
  ring: KeyRing,
  runId: string,
  afterId: number,
  limit = 500,
): Promise<RunEvent[]> {
  const rows = await listRunEvents(db, runId, afterId, limit)
  return rows.map((row) =>
    toRunEvent(
      row,
      openColumn<Record<string, unknown>>(ring, row.data_key_id, row.data, eventData(row.run_id, row.type)) ?? {},
    ),
  )
}

/** The id of the run's final event, or null while the run is still going. */
export function findFinalEventId(db: Db, runId: string): Promise<number | null> {
  return findFirstEventId(db, runId, FINAL_EVENT_TYPES)
}
