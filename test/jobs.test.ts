import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { defineJob, type Jobs, startJobs } from '#server/jobs/boss.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

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
