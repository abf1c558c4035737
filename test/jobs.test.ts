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
    const sent = performance.now()
    for (const n of [1, 2, 3, 4]) await jobs.send(short, { n })
    jobs.wake(short.queue)
    // A worker left to its backstop poll would take 30 s to come back for the third job.
    await waitUntil(() => finished.length === 4)
    expect(performance.now() - sent).toBeLessThan(3000)
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

/** Counts the job fetches (pg-boss's "next job" statement) made through `jobs`' database. */
function countFetches(jobs: Jobs, queue: string) {
  const db = jobs.boss.getDb()
  const execute = db.executeSql.bind(db)
  let count = 0
  db.executeSql = (text, values) => {
    if (/\bWITH\s+next\s+AS\b/i.test(text) && text.includes(`'${queue}'`)) count++
    return execute(text, values)
  }
  return {
    get count() {
      return count
    },
    /** Waits until no fetch has been made for a while (the workers' first fetches at start), then counts from zero. */
    async settle() {
      let seen = -1
      while (seen !== count) {
        seen = count
        await new Promise((resolve) => setTimeout(resolve, 400))
      }
      count = 0
    },
  }
}

test("a job's NOTIFY wakes one idle worker in each process, not all of them", async () => {
  let ran = 0
  // Looks far apart, so that only the job's NOTIFY can wake a worker within the test.
  const herd = defineJob({
    queue: 'test.herd',
    schema: z.object({}),
    concurrency: 8,
    pollSeconds: 120,
    queueOptions: { notify: true },
    handler: async () => {
      ran++
    },
  })
  const worker = await startJobs({ connectionString: database.url, definitions: [herd], work: true, log: testLogger() })
  const web = await startJobs({ connectionString: database.url, definitions: [herd], work: false, log: testLogger() })
  const fetches = countFetches(worker, herd.queue)
  try {
    await fetches.settle()
    // From another process: only the NOTIFY reaches the worker process.
    await web.send(herd, {})
    await waitUntil(() => ran === 1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    // pg-boss alone wakes all eight; seven find nothing. Here: the woken worker's fetch, and the one
    // it makes after its job (for jobs announced meanwhile; none here).
    expect(fetches.count).toBe(2)

    // From the worker process itself: its own NOTIFY is the wake, not a second one.
    await worker.send(herd, {})
    await waitUntil(() => ran === 2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(fetches.count).toBe(4)
  } finally {
    await Promise.all([web.stop(), worker.stop()])
  }
})

test('an idle process looks for due jobs once per interval, whatever its number of workers', async () => {
  const quiet = defineJob({
    queue: 'test.quiet',
    schema: z.object({}),
    concurrency: 8,
    pollSeconds: 1,
    handler: async () => {},
  })
  const jobs = await startJobs({ connectionString: database.url, definitions: [quiet], work: true, log: testLogger() })
  const fetches = countFetches(jobs, quiet.queue)
  try {
    await fetches.settle()
    await new Promise((resolve) => setTimeout(resolve, 3500))
    // One look a second; eight workers each polling on their own would make 28.
    expect(fetches.count).toBeGreaterThanOrEqual(2)
    expect(fetches.count).toBeLessThanOrEqual(5)
  } finally {
    await jobs.stop()
  }
})

test('a job announced while every worker is busy runs when one is free, not at the next look', async () => {
  const release = deferred<void>()
  const started: string[] = []
  const busy = defineJob({
    queue: 'test.busy',
    schema: z.object({ name: z.string() }),
    concurrency: 1,
    pollSeconds: 120,
    queueOptions: { notify: true },
    handler: async ({ name }) => {
      started.push(name)
      if (name === 'first') await release.promise
    },
  })
  const worker = await startJobs({ connectionString: database.url, definitions: [busy], work: true, log: testLogger() })
  const web = await startJobs({ connectionString: database.url, definitions: [busy], work: false, log: testLogger() })
  try {
    await web.send(busy, { name: 'first' })
    await waitUntil(() => started.length === 1)
    await web.send(busy, { name: 'second' })
    // The NOTIFY found the one worker busy; give it time to arrive before the worker is free.
    await new Promise((resolve) => setTimeout(resolve, 300))
    release.resolve()
    await waitUntil(() => started.length === 2, 3000)
    expect(started).toEqual(['first', 'second'])
  } finally {
    await Promise.all([web.stop(), worker.stop()])
  }
})

/**
 * A worker process whose queue has `concurrency` workers and only looks for jobs every two minutes;
 * jobs 1 to 4 are sent to it in one transaction, then `check` runs, then the process stops.
 */
async function fourSentTogether(
  queue: string,
  options: { notify: boolean; concurrency: number },
  handler: (n: number) => Promise<void>,
  check: () => Promise<void>,
) {
  const definition = defineJob({
    queue,
    schema: z.object({ n: z.number() }),
    concurrency: options.concurrency,
    pollSeconds: 120,
    queueOptions: { notify: options.notify },
    handler: ({ n }) => handler(n),
  })
  const jobs = await startJobs({
    connectionString: database.url,
    definitions: [definition],
    work: true,
    log: testLogger(),
  })
  try {
    await jobs.transaction(database.db, async (trx) => {
      for (const n of [1, 2, 3, 4]) await jobs.send(definition, { n }, { trx })
    })
    await check()
  } finally {
    await jobs.stop()
  }
}

// A transaction's jobs are announced once (Postgres folds a transaction's identical NOTIFYs), and its
// wakes land in one turn of the event loop, where a pg-boss worker folds a second wake into the
// first: each job must still be run at once, not at the next look (two minutes here).
test.each([
  { kind: 'notify', notify: true },
  { kind: 'looked-for', notify: false },
])('jobs sent together in one transaction to a $kind queue all run at once', async ({ notify }) => {
  const finished: number[] = []
  const handler = async (n: number) => {
    await new Promise((resolve) => setTimeout(resolve, 20))
    finished.push(n)
  }
  await fourSentTogether(
    `test.together_${notify ? 'notify' : 'looked'}`,
    { notify, concurrency: 1 },
    handler,
    async () => {
      await waitUntil(() => finished.length === 4)
      expect(finished.toSorted()).toEqual([1, 2, 3, 4])
    },
  )
})

// With a worker for each, a transaction's jobs run side by side: its sender wakes a worker for each
// job its one NOTIFY does not announce. Each job waits until all four have started.
test.each([
  { kind: 'notify', notify: true },
  { kind: 'looked-for', notify: false },
])('jobs sent together to a $kind queue with idle workers for each start side by side', async ({ notify }) => {
  const started: number[] = []
  const allStarted = deferred<void>()
  const handler = async (n: number) => {
    started.push(n)
    if (started.length === 4) allStarted.resolve()
    await allStarted.promise
  }
  const queue = `test.side_by_side_${notify ? 'notify' : 'looked'}`
  await fourSentTogether(queue, { notify, concurrency: 4 }, handler, async () => {
    try {
      await waitUntil(() => started.length === 4)
    } finally {
      allStarted.resolve() // so that stopping does not wait on a held job
    }
  })
})

test("a queue that exists takes the code's options at start, notify and heartbeat included", async () => {
  const queue = 'test.options'
  const start = (queueOptions: Parameters<typeof defineJob>[0]['queueOptions']) =>
    startJobs({
      connectionString: database.url,
      definitions: [defineJob({ queue, schema: z.object({}), queueOptions, handler: async () => {} })],
      work: false,
      log: testLogger(),
    })
  const first = await start({ retryLimit: 1, notify: true, heartbeatSeconds: 10 })
  await first.stop()
  const second = await start({ retryLimit: 3 })
  try {
    expect(await second.boss.getQueue(queue)).toMatchObject({ retryLimit: 3, notify: false, heartbeatSeconds: null })
  } finally {
    await second.stop()
  }
})
