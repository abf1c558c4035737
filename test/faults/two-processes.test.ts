// Two Sextant processes (real OS processes, `node server/main.ts`, both serving and working) on one
// database: a run started through the first is watched live over SSE on the second, whose only way
// to hear of it is Postgres LISTEN/NOTIFY. The stream carries every event once, in order, to the end;
// the run ends once, and its memory is saved once, whichever process ran it.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadInstallationKey } from '#server/crypto/installation-key.ts'
import { parseKeyRing } from '#server/crypto/key-ring.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import { loadTopicIndex } from '#server/topics/topic-index.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { type Sextants, startSextants, stubProvidersEnv } from '#test/support/process.ts'
import { expectRunIntegrity, loadIntactMemory } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream } from '#test/support/sse-client.ts'
import { type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

const TOPIC = 'Shared databases'

let database: TestDatabase
let exa: StubExa
let openai: StubOpenAi
let sextants: Sextants | undefined
let urls: string[]

beforeAll(async () => {
  database = await createTestDatabase()
  exa = await startStubExa({
    documents: [
      {
        url: 'https://ops.example/shared-databases/notify',
        title: 'NOTIFY across processes',
        publishedDate: new Date().toISOString(),
        text: 'Shared databases let every process hear NOTIFY, so any instance can stream any run.',
      },
    ],
  })
  openai = await startStubOpenAi()
  const env = {
    ...stubProvidersEnv(database, exa, openai),
    PROVIDER_TIMEOUT_SECONDS: '1',
    RATE_LIMIT_RUNS_PER_HOUR: '100',
  }
  sextants = await startSextants(2, env)
  urls = sextants.urls
}, 90_000)
afterAll(async () => {
  await sextants?.stop()
  await exa?.close()
  await openai?.close()
  await database?.drop()
})

test('a run started through one process is watched live to its end over SSE on the other', {
  timeout: 60_000,
}, async () => {
  const [first, second] = urls as [string, string]
  expect(first).not.toBe(second)
  const user = await createTestAccount(database.db)
  const fetchFirst = (path: string, init?: RequestInit) => fetch(new URL(path, first), init)
  // The first searches wait on Exa for a second, so the stream opens while the run is under way.
  exa.setBehaviour('hang', { times: 1 })
  const { response, body } = await postBrief(fetchFirst, user.auth, { topic: TOPIC, depth: 'quick' })
  expect(response.status).toBe(202)

  const stream = await openEventStream(new URL(`/api/briefs/${body.runId}/events`, second), user.auth)
  expect(stream.response.status).toBe(200)
  await stream.waitFor(() => stream.messages.length > 0)
  const seenAtOnce = stream.messages.length
  await stream.waitFor(() => stream.closed, 30_000)
  expect(stream.error).toBeUndefined()
  expect(stream.messages.at(-1)?.event).toBe('complete')
  expect(stream.messages.length, 'events arrived live, after the stream opened').toBeGreaterThan(seenAtOnce)

  // Exactly the run's log, once and in order.
  const logged = await database.db
    .selectFrom('run_events')
    .select(['id', 'type'])
    .where('run_id', '=', body.runId)
    .orderBy('id')
    .execute()
  expect(stream.messages.map((message) => [Number(message.id), message.event])).toEqual(
    logged.map((event) => [event.id, event.type]),
  )

  const done = await waitForRun(fetchFirst, user.auth, body.runId)
  expect(done.status).toBe('complete')
  await expectRunIntegrity(database.db, body.runId)
  const ring = parseKeyRing(TEST_MEMORY_KEYS)
  const topicIndex = await loadTopicIndex((setting, description) =>
    loadInstallationKey(database.db, ring, setting, description),
  )
  const memory = {
    db: database.db,
    column: topicMemoryColumn(ring),
    topicIndex,
    log: testLogger(),
    now: () => new Date(),
  }
  const saved = await loadIntactMemory(memory, user.account.id, TOPIC)
  expect(saved?.runs.map((run) => run.runId)).toEqual([body.runId])
  expect(saved?.ledger.map((entry) => entry.url)).toEqual(['https://ops.example/shared-databases/notify'])
  // Both processes answer for the run, and agree.
  const fromSecond = await (await fetch(new URL(`/api/briefs/${body.runId}`, second), { headers: user.auth })).json()
  expect(fromSecond).toEqual(done)
})
