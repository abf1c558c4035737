// LISTEN/NOTIFY: the channels every process's event hub (server/events/hub.ts) listens on, what
// their payloads say, and the sending side. A notification sent inside a transaction is delivered
// when it commits, and never if it rolls back. The runs' events repository
// (server/runs/repository/events.ts) writes RUN_EVENTS_CHANNEL's payloads in its SQL.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'

export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload}::text)`.execute(db)
}

/**
 * Announces each new event, once its transaction commits, as
 * `<runId>:<eventId>:<type>:<step>:<createdAt ms>:<keyId>:<sealed data, base64>`
 * (data '' for none, '!' when too large to carry). Readers before this format split off the first
 * two fields and read the table; they still work beside it.
 */
export const RUN_EVENTS_CHANNEL = 'run_events'

/**
 * Announces `<accountId>` or `<accountId>:<runId>` when something an account's run list shows has
 * changed: a run's event, or a series paused or resumed. Dashboards listen for their account.
 */
export const ACCOUNT_CHANNEL = 'account_changes'

/** A run's event as its row and its notification carry it, its data aside. */
export type RunEventRow = {
  id: number
  run_id: string
  type: string
  step: string | null
  created_at: Date
}

/** An event as its RUN_EVENTS_CHANNEL notification carries it. */
export type EventNotification = {
  runId: string
  id: number
  row: RunEventRow
  /** Its sealed data; null when it has none; 'unsent' when too large for the payload (read the row). */
  data: { keyId: string; ciphertext: Buffer } | null | 'unsent'
}

/** Parses a RUN_EVENTS_CHANNEL payload; undefined for one this version did not write. */
export function parseEventNotification(payload: string): EventNotification | undefined {
  const fields = payload.split(':')
  if (fields.length !== 7) return undefined
  const [runId, id, type, step, createdAt, keyId, data] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  const numbers = [Number(id), Number(createdAt)]
  if (!numbers.every(Number.isSafeInteger)) return undefined
  const row = { id: Number(id), run_id: runId, type, step: step || null, created_at: new Date(Number(createdAt)) }
  const sealed = data === '' ? null : data === '!' ? 'unsent' : { keyId, ciphertext: Buffer.from(data, 'base64') }
  return { runId, id: row.id, row, data: sealed }
}

/** Tells the account's open dashboards to refresh (when its transaction, if any, commits). */
export function notifyAccountChanged(db: Db, accountId: string): Promise<void> {
  return notify(db, ACCOUNT_CHANNEL, accountId)
}
