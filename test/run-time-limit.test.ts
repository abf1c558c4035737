// A run's time limit counts from when a worker takes it, not from when it was queued (issue 42): on
// Monday at nine a thousand runs queue at once, and the last one taken must still have its whole
// limit. Past the queue's time (RUN_QUEUE_TIMEOUT) the limit counts anyway, and the sweeper says that
// no worker took the run. Every check reads Postgres's own clock, not how fast this machine is.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { RESEARCH_RUN } from '#server/jobs/queues.ts'
import { startRunClock } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { queueRunRow, waitForRun } from '#test/support/runs.ts'

let stubs: ProviderApp

beforeAll(async () => {
  stubs = await startProviderApp({
    documents: [
      {
        url: 'https://harbour.example/locks',
        title: 'Harbour locks reopen',
        publishedDate: new Date().toISOString(),
        text: 'The harbour locks reopened on Monday after a 14-week refit costing 3.2 million pounds.',
      },
    ],
  })
})
afterAll(async () => {
  await stubs.stop()
})

/** A quick run as start-run queues it: the queue's hour and its own limit of `limitSeconds`. */
function queueRun(accountId: string, topic: string, deadlineInSeconds: number, limitSeconds: number) {
  return queueRunRow(stubs.app, accountId, topic, { deadlineInSeconds, limitSeconds })
}

async function clockOf(runId: string) {
  const { rows } = await sql<{ limit_from_start: number | null; started: boolean }>`
    select extract(epoch from deadline_at - started_at)::float8 as limit_from_start, started_at is not null as started
    from runs where id = ${runId}`.execute(stubs.app.db)
  return rows[0]
}

test('a run taken after a long wait in the queue has its whole time limit, counted from when it was taken', async () => {
  const user = await createTestAccount(stubs.app.db)
  // Queued with an hour for the queue and 90 s of its own.
  const runId = await queueRun(user.account.id, 'Harbour locks', 3600 + 90, 90)
  expect((await clockOf(runId))?.started).toBe(false)
  await stubs.app.jobs.send(RESEARCH_RUN, { runId })
  const body = await waitForRun(stubs.app.fetch, user.auth, runId, 60_000)
  expect(body.status).toBe('complete')
  // Its deadline is 90 s after a worker took it, not an hour and 90 s after it was queued.
  expect((await clockOf(runId))?.limit_from_start).toBeCloseTo(90, 3)
})

test('a run taken again (its job retried) keeps its deadline; one that waited past the queue keeps the one it was queued with', async () => {
  const user = await createTestAccount(stubs.app.db)
  const fresh = await queueRun(user.account.id, 'Locks, first take', 3600 + 90, 90)
  const first = await startRunClock(stubs.app.db, fresh)
  expect(first).toBeInstanceOf(Date)
  expect(await startRunClock(stubs.app.db, fresh)).toBeUndefined()
  expect((await clockOf(fresh))?.limit_from_start).toBeCloseTo(90, 3)

  // The queue's hour is spent: 30 s left of what it was queued with, less than its own 90.
  const late = await queueRun(user.account.id, 'Locks, late take', 30, 90)
  const deadline = await startRunClock(stubs.app.db, late)
  const limit = (await clockOf(late))?.limit_from_start ?? 0
  expect(deadline).toBeInstanceOf(Date)
  expect(limit).toBeLessThan(31)
})

test('a worker that takes a run only after its queue time and its limit fails it, saying no worker came in time', async () => {
  const user = await createTestAccount(stubs.app.db)
  const runId = await queueRun(user.account.id, 'Locks, taken too late', -1, 90)
  await stubs.app.jobs.send(RESEARCH_RUN, { runId })
  const body = await waitForRun(stubs.app.fetch, user.auth, runId, 60_000)
  expect(body.status).toBe('failed')
  expect(body.error?.message).toMatch(/No worker took the run/)
})

test('the sweeper fails a run no worker took in time, and says so', async () => {
  const user = await createTestAccount(stubs.app.db)
  const runId = await queueRun(user.account.id, 'Locks, never taken', -1, 90)
  // The sweeper's minute, now; the run has no job for a worker to take.
  await stubs.app.jobs.boss.send('runs.sweep', {})
  const body = await waitForRun(stubs.app.fetch, user.auth, runId, 90_000)
  expect(body.status).toBe('failed')
  expect(body.error?.message).toMatch(/No worker took the run/)
})
