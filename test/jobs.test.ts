import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { defineJob, type Jobs, startJobs } from '#server/jobs/boss.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { waitUntil } from '#test/support/sse-client.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

test('a job sent by a web process is run by a worker process with its parsed data', async () => {
  const received = deferred<{ topic: string; times: number }>()
  const echo = defineJob({
    queue: 'test.echo',
    schema: z.object({ topic: z.string(), times: z.number().int() }),
    handler: async (data) => received.resolve(data),
  })
  const worker = await startJobs({ connectionString: database.url, definitions: [echo], work: true, log: testLogger() })
  const web = await startJobs({ connectionString: database.url, definitions: [echo], work: false, log: testLogger() })
  try {
    const id = await web.send(echo, { topic: 'batteries', times: 2 })
    expect(id).toEqual(expect.any(String))
    expect(await received.promise).toEqual({ topic: 'batteries', times: 2 })
  } finally {
    await Promise.all([web.stop(), worker.stop()])
  }
})

test('send refuses data that does not match the job schema', async () => {
  const strict = defineJob({ queue: 'test.strict', schema: z.object({ n: z.number() }), handler: async () => {} })
  const jobs = await startJobs({
    connectionString: database.url,
    definitions: [strict],
    work: false,
    log: testLogger(),
  })
  try {
    await expect(jobs.send(strict, { n: 'one' } as unknown as { n: number })).rejects.toThrow()
    expect(await jobs.boss.getQueue('test.strict')).toMatchObject({ name: 'test.strict' })
  } finally {
    await jobs.stop()
  }
})

test('stop waits for a running job to finish before closing', async () => {
  const started = deferred<void>()
  let finished = false
  const slow = defineJob({
    queue: 'test.slow',
    schema: z.object({}),
    handler: async () => {
      started.resolve()
      await new Promise((resolve) => setTimeout(resolve, 500))
      finished = true
    },
  })
  const jobs: Jobs = await startJobs({
    connectionString: database.url,
    definitions: [slow],
    work: true,
    log: testLogger(),
  })
  await jobs.send(slow, {})
  await started.promise
  expect(jobs.isRunning()).toBe(true)
  await jobs.stop()
  expect(finished).toBe(true)
  expect(jobs.isRunning()).toBe(false)
})

test('jobs queued behind a busy worker run as soon as it is free, not at its next poll', async () => {
  const finished: number[] = []
  const short = defineJob({
    queue: 'test.backlog',
    schema: z.object({ n: z.number() }),
    concurrency: 1,
    // As the research queue: with LISTEN/NOTIFY, pg-boss's backstop poll is 30 s instead of 2 s.
    queueOptions: { notify: true },
    handler: async ({ n }) => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      finished.push(n)
    },
  })
  const jobs = await startJobs({ connectionString: database.url, definitions: [short], work: true, log: testLogger() })
  try {
    const sent = Date.now()
    for (const n of [1, 2, 3, 4]) await jobs.send(short, { n })
    jobs.wake(short.queue)
    // A worker left to its backstop poll would take 30 s to come back for the third job.
    await waitUntil(() => finished.length === 4, 5000)
    expect(Date.now() - sent).toBeLessThan(3000)
    expect(finished.toSorted()).toEqual([1, 2, 3, 4])
  } finally {
    await jobs.stop()
  }
})

test('a job sent in jobs.transaction wakes its workers only once the transaction commits, and a rollback sends nothing', async () => {
  const queue = defineJob({ queue: 'test.after_commit', schema: z.object({ n: z.number() }), handler: async () => {} })
  const jobs = await startJobs({ connectionString: database.url, definitions: [queue], work: false, log: testLogger() })
  const woken: string[] = []
  jobs.wake = (name) => woken.push(name)
  const queued = async () => (await jobs.boss.findJobs(queue.queue)).map((job) => (job.data as { n: number }).n)
  try {
    await jobs.transaction(database.db, async (trx) => {
      await jobs.send(queue, { n: 1 }, { trx })
      // Not yet: a worker woken now would look before the job is there to see.
      expect(woken).toEqual([])
    })
    expect(woken).toEqual([queue.queue])
    expect(await queued()).toEqual([1])

    await expect(
      jobs.transaction(database.db, async (trx) => {
        await jobs.send(queue, { n: 2 }, { trx })
        throw new Error('changed my mind')
      }),
    ).rejects.toThrow('changed my mind')
    expect(woken).toEqual([queue.queue])
    expect(await queued()).toEqual([1])

    // A transaction opened elsewhere would commit without waking anyone: refused.
    await expect(database.db.transaction().execute((trx) => jobs.send(queue, { n: 3 }, { trx }))).rejects.toThrow(
      /not opened by jobs.transaction/,
    )
    expect(await queued()).toEqual([1])

    // Outside a transaction the job exists at once, and so does the wake.
    await jobs.send(queue, { n: 4 })
    expect(woken).toEqual([queue.queue, queue.queue])
    expect((await queued()).toSorted()).toEqual([1, 4])
  } finally {
    await jobs.stop()
  }
})
