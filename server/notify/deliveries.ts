// What Sextant owes a Slack thread or a pull request: one row per message to post (the "researching"
// reply, the result, a notice), sent by the `deliver` job. The target of a run's "started" row is also
// where its result goes, and, for a recurring series, where every later run's result goes. A
// notice's text (which may quote the mention) is sealed; where to post is clear, as the job needs it.
// The SQL is server/notify/repository/deliveries.ts's.
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import {
  type Deliveries,
  type DeliveryRecord,
  type DeliveryStatus,
  findFirstStartedDelivery,
} from '#server/notify/repository/deliveries.ts'
import type { RunEndHook } from '#server/runs/contract.ts'
import {
  CHAT_CHANNELS,
  type ChatReply,
  type DeliveryChannel,
  type DeliveryKind,
  type Destination,
  GithubTargetSchema,
  SlackTargetSchema,
} from '#server/vocabulary/notify.ts'

export type DeliveryRow = {
  id: string
  runId: string | null
  kind: DeliveryKind
  status: DeliveryStatus
  notice: string | null
  partsSent: number
  attempts: number
} & Destination

/** Adds a delivery and its job in the caller's transaction; a run's second "started" or "result" is a no-op. */
export async function createDelivery(trx: Db, jobs: Jobs, deliveries: Deliveries, input: ChatReply): Promise<void> {
  const row = {
    run_id: input.runId,
    channel: input.channel,
    kind: input.kind,
    target: JSON.stringify(input.target),
  }
  const inserted = await deliveries.insert(
    trx,
    input.notice === undefined ? row : { ...row, id: randomUUID(), notice: input.notice },
  )
  if (inserted) await jobs.send(DELIVER, { deliveryId: inserted }, { trx })
}

/** A Slack or GitHub delivery as the job sends it, its destination parsed. */
export function chatDelivery(row: DeliveryRecord): DeliveryRow {
  return {
    id: row.id,
    runId: row.run_id,
    kind: row.kind,
    status: row.status,
    notice: row.notice,
    partsSent: row.parts_sent,
    attempts: row.attempts,
    ...parseDestination(row.channel, row.target),
  }
}

function parseDestination(channel: DeliveryChannel, target: unknown): Destination {
  if (channel !== 'slack' && channel !== 'github') throw new Error(`a ${channel} delivery has no chat destination`)
  return channel === 'slack'
    ? { channel, target: SlackTargetSchema.parse(target) }
    : { channel, target: GithubTargetSchema.parse(target) }
}

/** Where a run's result goes: its own "started" reply's thread, else that of its series' first run from chat. */
async function destinationOf(db: Db, runId: string, seriesId: string | null): Promise<Destination | undefined> {
  const origin = await findFirstStartedDelivery(db, runId, seriesId)
  return origin && parseDestination(origin.channel, origin.target)
}

/** Briefs from these sources were a chat mention: only they (or a series one started) owe chat a result. */
const CHAT_SOURCES = new Set<string>(CHAT_CHANNELS)

/**
 * What a run's end owes chat (the hook of server/runs/end.ts, composed in server/services.ts): if
 * the run came from chat (or belongs to a series that did), its result is owed there, queued in the
 * transaction that ends the run; the queue is woken once that commits.
 */
export function deliverResultWhenEnded(jobs: Jobs, deliveries: Deliveries): RunEndHook<Db> {
  return async (trx, { runId, seriesId, source, worthTelling }) => {
    if (!worthTelling || (!seriesId && !CHAT_SOURCES.has(source))) return
    const destination = await destinationOf(trx, runId, seriesId)
    if (destination) await createDelivery(trx, jobs, deliveries, { ...destination, runId, kind: 'result' })
  }
}
