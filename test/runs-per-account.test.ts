// A cap on the runs one account has going across every worker (RUNS_PER_ACCOUNT; issue 42, item 3;
// decision 039). One account's burst cannot hold every worker: the next account's brief is taken by a
// worker the burst left free. The cap is held under a lock when a run starts, so workers taking runs
// of one account at the same moment cannot both see room for one. Nothing here depends on how fast
// the machine is: searches are held open until the test lets them go, and overlaps are read from
// the runs' own start and end times.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startRunClock } from '#server/runs/repository/runs.ts'
import { QUEUED_STEP } from '#server/vocabulary/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { mostAtOnce } from '#test/support/intervals.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, queueRunRow, type RunBody, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'

const CAP = 2
let stubs: ProviderApp
// Searches wait here while `held` is set: the runs that reached their search stay going.
let held: PromiseWithResolvers<void> | undefined

beforeAll(async () => {
  stubs = await startProviderApp({
    documents: [
      {
        url: 'https://ferry.example/timetable',
        title: 'Winter ferry timetable',
        publishedDate: new Date().toISOString(),
        text: 'The island ferry will run four crossings a day from January, down from six, the operator said.',
      },
    ],
    exa: { gate: () => held?.promise ?? Promise.resolve() },
    env: {
      WORKER_CONCURRENCY: '4',
      RUNS_PER_ACCOUNT: String(CAP),
      // A held search must outlast however long the test holds it.
      PROVIDER_TIMEOUT_SECONDS: '120',
      RUN_DEADLINE_QUICK_SECONDS: '300',
    },
  })
})
afterAll(async () => {
  held?.resolve()
  await stubs.stop()
})

async function runTimes(runIds: string[]) {
  const { rows } = await sql<{ id: string; started_at: Date | null; finished_at: Date | null }>`
    select id, started_at, finished_at from runs where id in (${sql.join(runIds)})`.execute(stubs.app.db)
  return rows
}

test("an account's burst takes at most its cap of workers; another account's brief is taken by one left free", async () => {
  const busy = await createTestAccount(stubs.app.db)
  const quiet = await createTestAccount(stubs.app.db)
  held = Promise.withResolvers<void>()
  const burst: string[] = []
  for (let i = 1; i <= 4; i++) {
    const { response, body } = await postBrief(stubs.app.fetch, busy.auth, {
      topic: `island ferry ${i}`,
      depth: 'quick',
    })
    expect(response.status).toBe(202)
    burst.push(body.runId)
  }
  const started = async (runIds: string[]) => (await runTimes(runIds)).filter((row) => row.started_at !== null).length
  // Two of the burst are going, their searches held; four workers would take all four without the cap.
  await waitUntil(async () => (await started(burst)) === CAP)
  // The two waiting say so on every surface that reads a run: queued, no step of their own.
  const steps = async () => {
    const views = await Promise.all(
      burst.map(
        async (runId) =>
          (await (await stubs.app.fetch(`/api/briefs/${runId}`, { headers: busy.auth })).json()) as RunBody,
      ),
    )
    return views.map((view) => view.currentStep)
  }
  await waitUntil(async () => (await steps()).every((step) => step !== null))
  expect((await steps()).filter((step) => step === QUEUED_STEP)).toHaveLength(burst.length - CAP)
  const listed = (await (await stubs.app.fetch('/api/briefs', { headers: busy.auth })).json()) as {
    runs: RunBody[]
  }
  expect(listed.runs.filter((run) => run.currentStep === QUEUED_STEP)).toHaveLength(burst.length - CAP)

  const { body: lone } = await postBrief(stubs.app.fetch, quiet.auth, { topic: 'a single brief', depth: 'quick' })
  // Only a worker the burst left free can take it while the burst's searches are held.
  await waitUntil(async () => (await started([lone.runId])) === 1)
  expect(await started(burst)).toBe(CAP)

  held.resolve()
  for (const runId of burst)
    expect((await waitForRun(stubs.app.fetch, busy.auth, runId, 120_000)).status).toBe('complete')
  expect((await waitForRun(stubs.app.fetch, quiet.auth, lone.runId, 120_000)).status).toBe('complete')
  const rows = await runTimes(burst)
  expect(mostAtOnce(rows.map((row) => ({ start: row.started_at?.getTime(), end: row.finished_at?.getTime() })))).toBe(
    CAP,
  )
})

test('workers starting runs of one account at the same moment start no more than its cap', async () => {
  const user = await createTestAccount(stubs.app.db)
  const { db } = stubs.app
  const queue = (topic: string) =>
    queueRunRow(stubs.app, user.account.id, topic, { deadlineInSeconds: 3600, limitSeconds: 90 })
  const runIds = await Promise.all(Array.from({ length: 10 }, (_, i) => queue(`lock gates ${i}`)))
  // Ten takes at once, each its own statement on the pool, as ten workers' would be.
  const deadlines = await Promise.all(runIds.map((runId) => startRunClock(db, runId, 3)))
  expect(deadlines.filter((deadline) => deadline instanceof Date)).toHaveLength(3)

  // One of them ends: exactly one more may start.
  const first = runIds[deadlines.findIndex((deadline) => deadline instanceof Date)] as string
  await sql`update runs set status = 'complete', finished_at = now() where id = ${first}`.execute(db)
  const waiting = runIds.filter((_, i) => deadlines[i] === undefined)
  const next = await Promise.all(waiting.map((runId) => startRunClock(db, runId, 3)))
  expect(next.filter((deadline) => deadline instanceof Date)).toHaveLength(1)
  // With no cap, every one starts.
  const rest = waiting.filter((_, i) => next[i] === undefined)
  expect((await Promise.all(rest.map((runId) => startRunClock(db, runId, 0)))).every((d) => d instanceof Date)).toBe(
    true,
  )
})
