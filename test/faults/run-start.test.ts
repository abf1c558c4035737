// A run's start is one transaction: the run row, its run_started event and its job. A worker that
// takes the job the moment it is committed must find run_started already in the log (it used to be
// appended after the job was queued, so a fast worker logged step_started first).
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
beforeAll(async () => {
  // No worker: nothing touches the rows after the start, so their xmin is the start's transaction.
  app = await startTestApp({ env: { RUN_ROLE: 'web' } })
})
afterAll(() => app.stop())

test('the run row, its run_started event and its job are written by one transaction', async () => {
  const { auth } = await createTestAccount(app.db)
  const { response, body } = await postBrief(app.fetch, auth, { topic: 'one transaction', depth: 'quick' })
  expect(response.status).toBe(202)
  const runId = body.runId as string
  const { rows } = await sql<{ what: string; xid: string }>`
    select 'run' as what, xmin::text as xid from runs where id = ${runId}
    union all select 'event', xmin::text from run_events where run_id = ${runId} and type = 'run_started'
    union all select 'job', xmin::text from pgboss.job where data->>'runId' = ${runId}`.execute(app.db)
  expect(rows.map((row) => row.what).sort()).toEqual(['event', 'job', 'run'])
  expect(new Set(rows.map((row) => row.xid)).size).toBe(1)
})
