// Fair to every account (issue 42, item 3; decision 039): one account's many queued runs do not
// starve another's. Workers take research jobs by priority, then age, and each run's priority is
// minus the runs its account already has going, so another account's first run is taken second,
// before the busy account's second.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
beforeAll(async () => {
  // No worker: the runs stay queued, in the order a worker would take them.
  app = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
})
afterAll(async () => {
  await app.stop()
})

test("an account's many queued runs wait behind another account's first", async () => {
  const busy = await createTestAccount(app.db)
  const quiet = await createTestAccount(app.db)
  const owner = new Map<string, string>()
  const start = async (user: typeof busy, name: string, topic: string) => {
    const { response, body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
    expect(response.status).toBe(202)
    owner.set(body.runId, name)
  }
  for (let i = 1; i <= 4; i++) await start(busy, `busy ${i}`, `monitor number ${i}`)
  await start(quiet, 'quiet 1', 'a single brief')
  await start(busy, 'busy 5', 'monitor number 5')
  await start(quiet, 'quiet 2', 'another brief')

  // The order pg-boss fetches in: priority, then creation.
  const { rows } = await sql<{ runId: string; priority: number }>`
    select data->>'runId' as "runId", priority from pgboss.job
    where name = 'research.run' and state = 'created'
    order by priority desc, created_on`.execute(app.db)
  const order = rows.map((row) => owner.get(row.runId)).filter(Boolean)
  expect(order).toEqual(['busy 1', 'quiet 1', 'busy 2', 'quiet 2', 'busy 3', 'busy 4', 'busy 5'])
})
