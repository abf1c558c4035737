// What Sextant owes a Slack thread or a pull request: one row per message to post (the "researching"
// reply, the result, a notice), sent by the `deliver` job. The target of a run's "started" row is also
// where its result goes, and, for a recurring series, where every later run's result goes. A
// notice's text (which may quote the mention) is sealed; where to post is clear, as the job needs it.
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { DeliveryChannel, DeliveryKind } from '#db/schema.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'
import type { RunEndHook } from '#server/research/run-end.ts'

export const SlackTargetSchema = z.object({ teamId: z.string(), channel: z.string(), threadTs: z.string() })
export const GithubTargetSchema = z.object({ repo: z.string(), issueNumber: z.number().int().positive() })
export type SlackTarget = z.infer<typeof SlackTargetSchema>
export type GithubTarget = z.infer<typeof GithubTargetSchema>
export type Destination = { channel: 'slack'; target: SlackTarget } | { channel: 'github'; target: GithubTarget }

export type DeliveryRow = {
  id: string
  runId: string | null
  kind: DeliveryKind
  status: 'pending' | 'sent' | 'failed'
  notice: string | null
  partsSent: number
  attempts: number
} & Destination

export const noticeData = (deliveryId: string) => `delivery_notice:${deliveryId}`

/** Adds a delivery and its job in the caller's transaction; a run's second "started" or "result" is a no-op. */
export async function createDelivery(
  trx: Db,
  jobs: Jobs,
  ring: KeyRing,
  input: Destination & { runId: string | null; kind: DeliveryKind; notice?: string },
): Promise<void> {
  const id = randomUUID()
  const notice = input.notice === undefined ? undefined : sealJson(ring, input.notice, noticeData(id))
  const row = await trx
    .insertInto('deliveries')
    .values({
      id,
      run_id: input.runId,
      channel: input.channel,
      kind: input.kind,
      target: JSON.stringify(input.target),
      notice_key_id: notice?.keyId ?? null,
      notice: notice?.ciphertext ?? null,
    })
    .onConflict((conflict) => conflict.columns(['run_id', 'kind']).where('run_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (row) await jobs.send(DELIVER, { deliveryId: row.id }, { trx })
}

export async function getDelivery(db: Db, ring: KeyRing, id: string): Promise<DeliveryRow | undefined> {
  const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return undefined
  return {
    id: row.id,
    runId: row.run_id,
    kind: row.kind,
    status: row.status,
    notice: openColumn<string>(ring, row.notice_key_id, row.notice, noticeData(row.id)) ?? null,
    partsSent: row.parts_sent,
    attempts: row.attempts,
    ...parseDestination(row.channel, row.target),
  }
}

function parseDestination(channel: DeliveryChannel, target: unknown): Destination {
  return channel === 'slack'
    ? { channel, target: SlackTargetSchema.parse(target) }
    : { channel, target: GithubTargetSchema.parse(target) }
}

/** Where a run's result goes: its own "started" reply's thread, else that of its series' first run from chat. */
async function destinationOf(db: Db, runId: string): Promise<Destination | undefined> {
  const run = await db.selectFrom('runs').select('series_id').where('id', '=', runId).executeTakeFirst()
  if (!run) return undefined
  let query = db
    .selectFrom('deliveries')
    .innerJoin('runs', 'runs.id', 'deliveries.run_id')
    .select(['deliveries.channel', 'deliveries.target'])
    .where('deliveries.kind', '=', 'started')
  query = run.series_id
    ? query.where((eb) => eb.or([eb('runs.id', '=', runId), eb('runs.series_id', '=', run.series_id)]))
    : query.where('runs.id', '=', runId)
  const origin = await query.orderBy('deliveries.created_at').limit(1).executeTakeFirst()
  return origin && parseDestination(origin.channel, origin.target)
}

/**
 * What a run's end owes chat (the hook of server/research/run-end.ts, composed in server/services.ts): if
 * the run came from chat (or belongs to a series that did), its result is owed there, queued in the
 * transaction that ends the run; the queue is woken once that commits.
 */
export function deliverResultWhenEnded(jobs: Jobs, ring: KeyRing): RunEndHook {
  return async (trx, runId) => {
    const destination = await destinationOf(trx, runId)
    if (destination) await createDelivery(trx, jobs, ring, { ...destination, runId, kind: 'result' })
  }
}

export async function startedDeliveryStatus(db: Db, runId: string): Promise<DeliveryRow['status'] | undefined> {
  const row = await db
    .selectFrom('deliveries')
    .select('status')
    .where('run_id', '=', runId)
    .where('kind', '=', 'started')
    .executeTakeFirst()
  return row?.status
}

export async function markPartsSent(db: Db, id: string, partsSent: number): Promise<void> {
  await db.updateTable('deliveries').set({ parts_sent: partsSent }).where('id', '=', id).execute()
}

export async function markSent(db: Db, id: string): Promise<void> {
  await db.updateTable('deliveries').set({ status: 'sent', sent_at: new Date() }).where('id', '=', id).execute()
}

export async function recordFailedAttempt(
  db: Db,
  id: string,
  input: { attempts: number; error: string; final: boolean },
): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ attempts: input.attempts, last_error: input.error, ...(input.final ? { status: 'failed' } : {}) })
    .where('id', '=', id)
    .execute()
}
