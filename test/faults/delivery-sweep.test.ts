// Deliveries whose job gave up (issue 20, step 6), on the real job system: a pending row with no job
// left to work it (its job removed, or failed with its retries spent) is swept by the cron job: queued
// again under the attempt limit, failed with the reason at it. A row whose job is still waiting, or
// that was sent, is left alone. No delivery stays pending for good.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { JOBS_SCHEMA } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import { MAX_ATTEMPTS } from '#server/notify/delivery-attempts.ts'
import { sweepDeliveries } from '#server/notify/delivery-sweep.ts'
import { findStrandedDeliveries, lockStrandedDelivery } from '#server/notify/repository/deliveries.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { testLogger } from '#test/support/logger.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

async function addDelivery(values: { attempts?: number; status?: 'pending' | 'sent' } = {}): Promise<string> {
  const row = await app.db
    .insertInto('deliveries')
    .values({
      channel: 'slack',
      kind: 'notice',
      target: JSON.stringify({ teamId: 'T-unlinked', channel: 'C1', threadTs: '1.1' }),
      attempts: values.attempts ?? 0,
      status: values.status ?? 'pending',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

const delivery = (id: string) =>
  app.db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function deliverJobs(id: string) {
  const { rows } = await sql<{ state: string }>`
    select state::text from pgboss.job where name = ${DELIVER.queue} and data->>'deliveryId' = ${id}
    order by created_on`.execute(app.db)
  return rows.map((row) => row.state)
}

test('the sweep retries a delivery whose job is gone, fails one whose job failed at the attempt limit, and leaves live ones alone', async () => {
  expect(await app.jobs.boss.getSchedules('deliveries.sweep')).toEqual([
    expect.objectContaining({ name: 'deliveries.sweep', cron: '*/5 * * * *' }),
  ])

  // Its job was removed (or pg-boss deleted it): nothing will ever work it.
  const orphan = await addDelivery()
  // Its job failed with no retries left, and it had used all but one attempt.
  const exhausted = await addDelivery({ attempts: MAX_ATTEMPTS - 1 })
  const failedJob = await app.jobs.boss.send(
    DELIVER.queue,
    { deliveryId: exhausted },
    { retryLimit: 0, startAfter: 3600 },
  )
  await app.jobs.boss.fail(DELIVER.queue, failedJob as string, { message: 'the database went away' })
  expect(await deliverJobs(exhausted)).toEqual(['failed'])
  // Waiting out a backoff: its job is queued for later, so it is not stranded.
  const waiting = await addDelivery()
  await app.jobs.boss.send(DELIVER.queue, { deliveryId: waiting }, { startAfter: 3600 })
  // Sent long ago; its job is long gone, as it should be.
  const sent = await addDelivery({ status: 'sent' })

  await app.jobs.boss.send('deliveries.sweep', {})
  const deadline = performance.now() + 30_000
  while ((await delivery(orphan)).status === 'pending' || (await delivery(exhausted)).status === 'pending') {
    if (performance.now() > deadline) throw new Error('the sweep did not move the stranded deliveries')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  // At the limit: failed, saying why, and no new job.
  expect(await delivery(exhausted)).toMatchObject({
    status: 'failed',
    attempts: MAX_ATTEMPTS,
    last_error: `its delivery job ended failed; gave up after ${MAX_ATTEMPTS} attempts`,
  })
  expect(await deliverJobs(exhausted)).toEqual(['failed'])

  // Under it: a new job was queued and worked. The workspace is not linked, so that attempt is final:
  // the row ends failed with the platform's reason, not pending.
  const retried = await delivery(orphan)
  expect(retried).toMatchObject({
    status: 'failed',
    attempts: 2,
    last_error: 'Slack workspace T-unlinked is no longer linked',
  })
  // The handler writes the row before pg-boss marks its job completed.
  await expect.poll(() => deliverJobs(orphan), { timeout: 30_000 }).toEqual(['completed'])

  expect(await delivery(waiting)).toMatchObject({ status: 'pending', attempts: 0, last_error: null })
  expect(await deliverJobs(waiting)).toEqual(['created'])
  expect(await delivery(sent)).toMatchObject({ status: 'sent', attempts: 0, last_error: null })
})

test('a swept delivery gets exactly one new job, however many sweeps run at once', async () => {
  const orphan = await addDelivery({ attempts: 1 })
  // Sweeps racing for the same row (the cron queue runs one at a time; this is its worst case).
  const deps = { db: app.db, jobs: app.jobs, log: testLogger() }
  const outcomes = await Promise.all([1, 2, 3, 4].map(() => sweepDeliveries(deps)))
  expect(outcomes.reduce((sum, swept) => sum + swept.retried, 0)).toBe(1)
  const deadline = performance.now() + 30_000
  while ((await delivery(orphan)).status === 'pending' && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  expect(await delivery(orphan)).toMatchObject({ status: 'failed', attempts: 3 })
  // The handler writes the row before pg-boss marks its job completed.
  await expect.poll(() => deliverJobs(orphan), { timeout: 30_000 }).toEqual(['completed'])
})

test('a sweep that found a row before another sweep retried it does not retry it again', async () => {
  const jobs = { jobsSchema: JOBS_SCHEMA, queue: DELIVER.queue }
  const orphan = await addDelivery({ attempts: 1 })
  const found = (await findStrandedDeliveries(app.db, jobs, 1_000)).find((row) => row.id === orphan)
  expect(found).toMatchObject({ id: orphan, attempts: 1 })
  // Another sweep locks the row, counts its attempt and queues a job, and commits. A sweep whose
  // statement began before that commit reads the row as it was left but not the new job: here the
  // job is left out to stand for that, and the attempts alone must tell the row has moved on.
  await app.db.updateTable('deliveries').set({ attempts: 2 }).where('id', '=', orphan).execute()
  const locked = await app.db
    .transaction()
    .execute((trx) => lockStrandedDelivery(trx, jobs, found as { id: string; attempts: number }))
  expect(locked).toBeUndefined()
  // As found now, it is stranded again, and one sweep may take it.
  const again = (await findStrandedDeliveries(app.db, jobs, 1_000)).find((row) => row.id === orphan)
  const taken = await app.db
    .transaction()
    .execute((trx) => lockStrandedDelivery(trx, jobs, again as { id: string; attempts: number }))
  expect(taken).toMatchObject({ id: orphan, attempts: 2 })
  await app.db.updateTable('deliveries').set({ status: 'failed' }).where('id', '=', orphan).execute()
})
