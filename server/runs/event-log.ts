// The run event log: what a run reports as it goes, kept in Postgres so SSE clients can replay it,
// and announced with NOTIFY (carrying the event, sealed) so the process holding a client's stream
// hears about it without reading the table.
// An event's data (search queries, warnings, a failure's message) is sealed with the memory key
// ring, by its codec (EventDataColumn); its run, type, step and time are clear. The SQL is
// server/runs/repository/events.ts's.

import type { Db } from '#db/database.ts'
import type { RunEventLog } from '#server/events/hub.ts'
import type { EventNotification } from '#server/repositories/notifications.ts'
import type { NewEvent, RunEvent } from '#server/runs/contract.ts'
import type { EventDataColumn } from '#server/runs/repository/event-data.ts'
import { findFirstEventId, insertRunEvents, listRunEvents, type RunEventRow } from '#server/runs/repository/events.ts'
import type { NewRun, RunAdvance, WhileRunning } from '#server/runs/repository/runs.ts'
import { FINAL_EVENT_TYPES, type RunEventType } from '#server/vocabulary/runs.ts'

export type { RunEvent }

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

export type { NewEvent }

/**
 * Appends a run's events in one statement, in order, and notifies listeners when it commits (each
 * notification carries its event, sealed); one run's ids commit in increasing order
 * (server/runs/repository/events.ts says how). With a RunAdvance, the statement also moves the
 * run to its next step, only while it is running: an empty answer means it no longer is; so does
 * WhileRunning, for a running run's progress. With a NewRun, it first inserts the run.
 */
export async function appendRunEvents(
  db: Db,
  column: EventDataColumn,
  runId: string,
  events: NewEvent[],
  run?: RunAdvance | NewRun | WhileRunning,
): Promise<RunEvent[]> {
  const dataOf = events.map((event) => event.data ?? {})
  const rows = await insertRunEvents(
    db,
    runId,
    events.map((event, index) => {
      const data = dataOf[index] as Record<string, unknown>
      // An event without data (a step starting) stores none: nothing to seal.
      const sealed = Object.keys(data).length > 0 ? column.seal(data, runId, event.type) : undefined
      return { type: event.type, step: event.step ?? null, data: sealed }
    }),
    run,
  )
  return rows.map((row, index) => toRunEvent(row, dataOf[index] as Record<string, unknown>))
}

/**
 * The event a notification carries, its data opened; undefined when it must be read from the table
 * instead (a payload of another version, data too large to carry).
 */
export function notifiedEvent(column: EventDataColumn, notification: EventNotification): RunEvent | undefined {
  const { row, data } = notification
  if (data === 'unsent') return undefined
  return toRunEvent(row, data ? column.open(data, row.run_id, row.type) : {})
}

/** The run's events with an id above `afterId`, oldest first, their data unsealed (one decrypt each). */
export async function readRunEvents(
  db: Db,
  column: EventDataColumn,
  runId: string,
  afterId: number,
  limit = 500,
): Promise<RunEvent[]> {
  const rows = await listRunEvents(db, runId, afterId, limit)
  return rows.map((row) =>
    toRunEvent(row, column.open({ keyId: row.data_key_id, ciphertext: row.data }, row.run_id, row.type) ?? {}),
  )
}

/** The id of the run's final event, or null while the run is still going. */
export function findFinalEventId(db: Db, runId: string): Promise<number | null> {
  return findFirstEventId(db, runId, FINAL_EVENT_TYPES)
}

/** The log as the event hub and the event streams read it (their port), over `db`. */
export function runEventLog(db: Db, column: EventDataColumn): RunEventLog {
  return {
    read: (runId, afterId, limit) => readRunEvents(db, column, runId, afterId, limit),
    notified: (notification) => notifiedEvent(column, notification),
    finalEventId: (runId) => findFinalEventId(db, runId),
  }
}
