// The sealed data of a run's events: its codec, built from the key ring (decision 064). The event log
// (server/runs/event-log.ts) seals and opens with it; the runs repository's seals carry it, so
// that what writes a run's events needs no ring. A file of its own: the run events' repository
// imports the runs', which could not import it back.
import { z } from 'zod'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'

/** What binds an event's sealed data to its run and type. */
export const eventData = (runId: string, type: string) => `run_event:${runId}:${type}`

/** An event's data (search queries, warnings, a failure's message): sealed, bound to its run and type. */
export function eventDataColumn(ring: KeyRing) {
  return sealedColumn(ring, {
    name: 'run_events.data',
    schema: z.record(z.string(), z.unknown()),
    associatedData: eventData,
  })
}

export type EventDataColumn = ReturnType<typeof eventDataColumn>
