// The deliveries table: SQL only, the database (or the caller's transaction) first. A row's notice
// (a chat notice's text, a webhook event's body, a confirmation's token) is sealed, bound to its row;
// the functions that write or read it are those of createDeliveries, built from the key ring, and
// they hand it over opened (decision 064). What a row means (where its target points, parsed with
// its schema) is server/notify/deliveries.ts's; the `deliver` job records its progress here.
import { type Insertable, type Selectable, sql } from 'kysely'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { DeliveriesTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'

/** What binds a delivery's sealed notice to its row. */
export const noticeData = (deliveryId: string) => `delivery_notice:${deliveryId}`

type Stored = Selectable<DeliveriesTable>
/** A delivery as its job reads it: its notice opened (null when it has none). */
export type DeliveryRecord = Omit<Stored, 'notice' | 'notice_key_id' | 'legacy_notice'> & { notice: string | null }
export type DeliveryStatus = DeliveryRecord['status']
/** A delivery to insert: one with a notice names its id, which the sealed notice is bound to. */
export type NewDelivery = Omit<Insertable<DeliveriesTable>, 'id' | 'notice' | 'notice_key_id' | 'legacy_notice'> &
  ({ id: string; notice: string } | { id?: string; notice?: undefined })

/** The statements that write or read a delivery's sealed notice, with its codec built once from the ring. */
export function createDeliveries(ring: KeyRing) {
  const notice = sealedColumn(ring, { name: 'deliveries.notice', schema: z.string(), associatedData: noticeData })
  const stored = (values: NewDelivery): Insertable<DeliveriesTable> => {
    if (values.notice === undefined) return { ...values, notice: null, notice_key_id: null }
    const sealed = notice.seal(values.notice, values.id)
    return { ...values, notice_key_id: sealed.keyId, notice: sealed.ciphertext }
  }
  return {
    /** Inserts the row and answers its id; undefined when the run already has a row of that kind (not for events). */
    async insert(db: Db, values: NewDelivery): Promise<string | undefined> {
      const row = await db
        .insertInto('deliveries')
        .values(stored(values))
        .onConflict((conflict) =>
          conflict.columns(['run_id', 'kind']).where('run_id', 'is not', null).where('kind', '<>', 'event').doNothing(),
        )
        .returning('id')
        .executeTakeFirst()
      return row?.id
    },

    /** A webhook event's row; undefined when the run already owes that event to that target. */
    async insertEvent(db: Db, values: NewDelivery & { run_id: string; kind: 'event' }): Promise<string | undefined> {
      const row = await db
        .insertInto('deliveries')
        .values(stored(values))
        .onConflict((conflict) => conflict.columns(['run_id', 'target']).where('kind', '=', 'event').doNothing())
        .returning('id')
        .executeTakeFirst()
      return row?.id
    },

    async find(db: Db, id: string): Promise<DeliveryRecord | undefined> {
      const row = await db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) return undefined
      const { notice_key_id: keyId, notice: ciphertext, legacy_notice: _legacy, ...rest } = row
      return { ...rest, notice: notice.open({ keyId, ciphertext }, row.id) ?? null }
    },
  }
}

export type Deliveries = ReturnType<typeof createDeliveries>

/**
 * The first "started" reply of the run or, with seriesId, of any run of that series: where the
 * run's result goes. The target is the stored JSON, unparsed.
 */
export async function findFirstStartedDelivery(
  db: Db,
  runId: string,
  seriesId: string | null,
): Promise<Pick<DeliveryRecord, 'channel' | 'target'> | undefined> {
  let query = db
    .selectFrom('deliveries')
    .innerJoin('runs', 'runs.id', 'deliveries.run_id')
    .select(['deliveries.channel', 'deliveries.target'])
    .where('deliveries.kind', '=', 'started')
  query = seriesId
    ? query.where((eb) => eb.or([eb('runs.id', '=', runId), eb('runs.series_id', '=', seriesId)]))
    : query.where('runs.id', '=', runId)
  return query.orderBy('deliveries.created_at').limit(1).executeTakeFirst()
}

/** The status of the run's "started" reply, if it has one. */
export async function startedDeliveryStatus(db: Db, runId: string): Promise<DeliveryStatus | undefined> {
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

/** Where the job system keeps its jobs, and the queue deliveries are worked from (the caller names them). */
export type DeliveryJobs = { jobsSchema: string; queue: string }

/** A pending delivery whose job gave up: the state of its newest job, or null when none is left. */
export type StrandedDelivery = { id: string; attempts: number; jobState: string | null }

/** Pending deliveries with no job that will still work them (queued, waiting to retry, or running). */
function strandedDeliveries(db: Db, jobs: DeliveryJobs) {
  const job = sql.table(`${jobs.jobsSchema}.job`)
  return db
    .selectFrom('deliveries')
    .select(['deliveries.id', 'deliveries.attempts'])
    .select(
      sql<string | null>`(select state::text from ${job}
        where name = ${jobs.queue} and data->>'deliveryId' = deliveries.id::text
        order by created_on desc limit 1)`.as('jobState'),
    )
    .where('deliveries.status', '=', 'pending')
    .where(
      sql<boolean>`not exists (select 1 from ${job}
        where name = ${jobs.queue} and data->>'deliveryId' = deliveries.id::text
        and state in ('created', 'retry', 'active'))`,
    )
}

export async function findStrandedDeliveries(db: Db, jobs: DeliveryJobs, limit: number): Promise<StrandedDelivery[]> {
  return strandedDeliveries(db, jobs).orderBy('deliveries.created_at').limit(limit).execute()
}

/**
 * The delivery, locked until the transaction ends, if it is still stranded as it was found (with the
 * attempts it was found with); undefined when another sweep holds it or it has moved on (sent,
 * failed, or given a job) since. The attempts are what tell: a sweep that locks the row just after
 * another committed reads the row as that one left it, but the job that one queued may be newer than
 * its statement's snapshot, so "no job left" alone would queue a second.
 */
export async function lockStrandedDelivery(
  trx: Db,
  jobs: DeliveryJobs,
  found: Pick<StrandedDelivery, 'id' | 'attempts'>,
): Promise<StrandedDelivery | undefined> {
  return strandedDeliveries(trx, jobs)
    .where('deliveries.id', '=', found.id)
    .where('deliveries.attempts', '=', found.attempts)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst()
}
