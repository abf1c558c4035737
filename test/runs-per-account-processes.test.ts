// The per-account cap across the cluster (RUNS_PER_ACCOUNT; issue 42, item 3; decision 039): two
// Sextant processes (real OS processes, `node server/main.ts`) of two workers each on one database.
// One account's burst of four may hold two of the four workers, whichever process runs them, so the
// other account's brief is taken by a worker left free. Searches are held open until the test lets
// them go, and overlaps are read from the runs' own start and end times: nothing here depends on
// how fast the machine is.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { mostAtOnce } from '#test/support/intervals.ts'
import { PROCESS_TEST_BUDGET_MS, type Sextants, startSextants, stubProvidersEnv } from '#test/support/process.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'
import { type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

const CAP = 2
let database: TestDatabase
let exa: StubExa
let openai: StubOpenAi
let sextants: Sextants | undefined
// Searches wait here while it is set: the runs that reached their search stay going.
let held: PromiseWithResolvers<void> | undefined

beforeAll(async () => {
  database = await createTestDatabase()
  exa = await startStubExa({
    documents: [
      {
        url: 'https://tides.example/almanac',
        title: 'Spring tides due',
        publishedDate: new Date().toISOString(),
        text: 'The harbour authority expects spring tides of 6.1 metres next week, the highest this year.',
      },
    ],
    gate: () => held?.promise ?? Promise.resolve(),
  })
  openai = await startStubOpenAi()
  sextants = await startSextants(2, {
    ...stubProvidersEnv(database, exa, openai),
    RATE_LIMIT_RUNS_PER_HOUR: '100',
    WORKER_CONCURRENCY: '2',
    RUNS_PER_ACCOUNT: String(CAP),
    // A held search must outlast however long the test holds it.
    PROVIDER_TIMEOUT_SECONDS: '120',
    RUN_DEADLINE_QUICK_SECONDS: '300',
  })
}, PROCESS_TEST_BUDGET_MS)
afterAll(async () => {
  held?.resolve()
  await sextants?.stop()
  await exa?.close()
  await openai?.close()
  await database?.drop()
})

async function runTimes(runIds: string[]) {
  const { rows } = await sql<{ started_at: Date | null; finished_at: Date | null }>`
    select started_at, finished_at from runs where id in (${sql.join(runIds)})`.execute(database.db)
  return rows
}

test("an account's burst holds at most its cap of the cluster's workers, whichever process takes them", {
  timeout: PROCESS_TEST_BUDGET_MS,
}, async () => {
  const [first, second] = (sextants?.urls ?? []) as [string, string]
  const through = (url: string) => (path: string, init?: RequestInit) => fetch(new URL(path, url), init)
  const busy = await createTestAccount(database.db)
  const quiet = await createTestAccount(database.db)
  held = Promise.withResolvers<void>()
  const burst: string[] = []
  for (let i = 1; i <= 4; i++) {
    // Posted through both processes in turn: each hears of the jobs and fetches.
    const { response, body } = await postBrief(through(i % 2 ? first : second), busy.auth, {
      topic: `spring tides ${i}`,
      depth: 'quick',
    })
    expect(response.status).toBe(202)
    burst.push(body.runId)
  }
  const started = async (runIds: string[]) => (await runTimes(runIds)).filter((row) => row.started_at !== null).length
  // Two of the burst are going, their searches held; the four workers would take all four without the cap.
  await waitUntil(async () => (await started(burst)) === CAP, PROCESS_TEST_BUDGET_MS / 2)

  const { body: lone } = await postBrief(through(second), quiet.auth, { topic: 'harbour dredging', depth: 'quick' })
  // Only a worker the burst left free, in either process, can take it while the burst's searches are held.
  await waitUntil(async () => (await started([lone.runId])) === 1, PROCESS_TEST_BUDGET_MS / 2)
  expect(await started(burst)).toBe(CAP)

  held.resolve()
  for (const runId of burst)
    expect((await waitForRun(through(first), busy.auth, runId, 90_000)).status).toBe('complete')
  const rows = await runTimes(burst)
  expect(mostAtOnce(rows.map((row) => ({ start: row.started_at?.getTime(), end: row.finished_at?.getTime() })))).toBe(
    CAP,
  )
})
