// Postgres restarting in the middle of a run. This file runs its own embedded Postgres (the shared
// one serves every other test file), stops it while a run waits on the search provider, and starts
// it again on the same data and port. The app must come back by itself: the pool, pg-boss (workers
// in another process wake on its LISTEN/NOTIFY) and the event hub's LISTEN connection. The run ends,
// the SSE client watching it sees the end, and nothing is doubled.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#db/embedded.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { testLogger } from '#test/support/logger.ts'
import { expectRunIntegrity, loadIntactMemory } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream, waitUntil } from '#test/support/sse-client.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

const TOPIC = 'Database restarts'
const documents = [
  {
    url: 'https://ops.example/database-restarts/pools',
    title: 'Connection pools after a database restart',
    publishedDate: new Date().toISOString(),
    text: 'Database restarts drop every connection; a pool that discards broken clients reconnects on the next query.',
  },
  {
    url: 'https://ops.example/database-restarts/listen',
    title: 'LISTEN after a restart',
    publishedDate: new Date().toISOString(),
    text: 'Database restarts end LISTEN sessions, so a listener must reconnect and re-read what it missed.',
  },
]

let dataDir: string
let postgres: EmbeddedPostgres
let exa: StubExa
let openai: StubOpenAi
let worker: TestApp
let web: TestApp

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-restart-'))
  fs.chmodSync(dataDir, 0o755) // the postgres OS user must reach it when we run as root
  postgres = await startEmbeddedPostgres({ dataDir, preferredPort: 0, log: testLogger() })
  exa = await startStubExa({ documents })
  openai = await startStubOpenAi()
  const env = {
    EXA_API_KEY: STUB_EXA_API_KEY,
    EXA_BASE_URL: exa.url,
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseUrl,
    PROVIDER_TIMEOUT_SECONDS: '4',
    RUN_DEADLINE_QUICK_SECONDS: '60',
    RATE_LIMIT_RUNS_PER_HOUR: '1000',
  }
  // Two apps as web and worker, so a run sent after the restart has to reach the worker through
  // pg-boss's own LISTEN connection; the apps' stop() leaves this database alone.
  worker = await startTestApp({ databaseUrl: postgres.url, env: { ...env, RUN_ROLE: 'worker' } })
  web = await startTestApp({ databaseUrl: postgres.url, env: { ...env, RUN_ROLE: 'web' } })
}, 120_000)
afterAll(async () => {
  await web?.stop()
  await worker?.stop()
  await postgres?.stop()
  await exa?.close()
  await openai?.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

test('the app reaches its embedded Postgres through a Unix socket in the cluster, not TCP', async () => {
  const socketDir = new URL(postgres.url).searchParams.get('host')
  expect(socketDir).toMatch(/^\//)
  const { rows } = await sql<{ address: string | null }>`select inet_server_addr()::text as address`.execute(web.db)
  expect(rows[0]?.address).toBeNull() // null: a Unix-socket connection
})

test('Postgres restarts while a run searches: the run completes, the watching stream sees it end, nothing doubled', {
  timeout: 120_000,
}, async () => {
  const user = await createTestAccount(web.db)
  exa.setBehaviour('hang', { times: 3 }) // the run's three first queries wait on Exa
  const { body } = await postBrief(web.fetch, user.auth, { topic: TOPIC, depth: 'quick' })
  const stream = await openEventStream(new URL(`/api/briefs/${body.runId}/events`, web.url), user.auth)
  expect(stream.response.status).toBe(200)
  await stream.waitFor(
    () => stream.messages.some((m) => m.event === 'step_started' && m.data.includes('"search"')),
    20_000,
  )

  const port = postgres.port
  await postgres.stop()
  // While it is down the app answers, and says it is not ready, rather than hanging.
  const down = await web.fetch('/readyz')
  expect(down.status).toBe(503)
  postgres = await startEmbeddedPostgres({ dataDir, preferredPort: port, log: testLogger() })
  expect(postgres.port).toBe(port)

  // The hung attempts time out and are retried against a database that is back.
  const done = await waitForRun(web.fetch, user.auth, body.runId, 60_000)
  expect(done.status, JSON.stringify(done.error)).toBe('complete')
  await stream.waitFor(() => stream.closed)
  expect(stream.messages.at(-1)?.event).toBe('complete')
  const ids = stream.messages.map((message) => Number(message.id))
  expect(ids, 'the stream repeated or reordered an event').toEqual([...new Set(ids)].sort((a, b) => a - b))

  await expectRunIntegrity(web.db, body.runId)
  const memory = await loadIntactMemory(web.memory, user.account.id, TOPIC)
  expect(memory?.runs.map((run) => run.runId)).toEqual([body.runId])
  await waitUntil(async () => (await web.fetch('/readyz')).status === 200)

  // Sent after the restart by the web process: the worker must hear of it and run it promptly,
  // and a new stream must see it live.
  const started = performance.now()
  const next = await postBrief(web.fetch, user.auth, { topic: 'After the restart', depth: 'quick' })
  const live = await openEventStream(new URL(`/api/briefs/${next.body.runId}/events`, web.url), user.auth)
  await live.waitFor(() => live.closed)
  expect(live.messages.at(-1)?.event).toBe('complete')
  expect(performance.now() - started).toBeLessThan(15_000)
  await expectRunIntegrity(web.db, next.body.runId)
})
