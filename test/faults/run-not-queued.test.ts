// A run start the database refuses to write (a full disk, as the database reports it): the client
// gets 503 with Retry-After at once, never a 202 for a run that will not run and never a 500, and
// nothing is left behind; /readyz says the job system cannot queue until writes work again.

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { BriefInput } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { expectRunIntegrity } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
  await sql`create function refuse_write() returns trigger language plpgsql as $$
    begin raise exception using errcode = 'disk_full', message = 'could not extend file: No space left on device'; end $$`.execute(
    app.db,
  )
})
afterAll(() => app.stop())

/** What a start writes: the account's runs and their events, and research jobs (of anyone). */
async function written(accountId: string) {
  const count = (query: { execute: () => Promise<unknown[]> }) => query.execute().then((rows) => rows.length)
  return {
    runs: await count(app.db.selectFrom('runs').select('id').where('account_id', '=', accountId)),
    events: await count(
      app.db
        .selectFrom('run_events')
        .innerJoin('runs', 'runs.id', 'run_events.run_id')
        .select('run_events.id')
        .where('runs.account_id', '=', accountId),
    ),
    jobs: (await sql`select id from pgboss.job where name = 'research.run'`.execute(app.db)).rows.length,
  }
}

async function expectRefused(response: Response, body: unknown) {
  expect(response.status, JSON.stringify(body)).toBe(503)
  expect(response.headers.get('content-type')).toContain('application/problem+json')
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(body).toMatchObject({ status: 503, title: 'Service Unavailable', detail: expect.stringMatching(/Try again/) })
  expect(JSON.stringify(body)).not.toMatch(/No space|extend file/) // the database's words stay in the log
}

test('the job insert refused: 503 + Retry-After, no run left behind, /readyz 503 until it works again', async () => {
  const user = await createTestAccount(app.db)
  const brief = { topic: 'Sodium-ion batteries', depth: 'quick' } as const
  await sql`create trigger refuse_job before insert on pgboss.job
    for each row when (new.name = 'research.run') execute function refuse_write()`.execute(app.db)
  try {
    const before = await written(user.account.id)
    const { response, body } = await postBrief(app.fetch, user.auth, brief)
    await expectRefused(response, body)
    expect(await written(user.account.id)).toEqual(before)

    const ready = await app.fetch('/readyz')
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({
      status: 'not_ready',
      checks: { database: { ok: true }, jobs: { ok: false, error: expect.stringMatching(/No space left/) } },
    })
  } finally {
    await sql`drop trigger refuse_job on pgboss.job`.execute(app.db)
  }

  // Writes work again: ready within a probe interval, and the same brief runs to the end.
  await waitUntil(async () => (await app.fetch('/readyz')).status === 200)
  const { response, body } = await postBrief(app.fetch, user.auth, brief)
  expect(response.status).toBe(202)
  expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
  await expectRunIntegrity(app.db, body.runId)
})

test('the first event refused after the run row and job were written: 503, and neither is left behind', async () => {
  const user = await createTestAccount(app.db)
  await sql`create trigger refuse_event before insert on run_events
    for each row when (new.type = 'run_started') execute function refuse_write()`.execute(app.db)
  try {
    const before = await written(user.account.id)
    const { response, body } = await postBrief(app.fetch, user.auth, { topic: 'Grid storage', depth: 'quick' })
    await expectRefused(response, body)
    expect(await written(user.account.id)).toEqual(before)
  } finally {
    await sql`drop trigger refuse_event on run_events`.execute(app.db)
  }
})

test('the dashboard form and the MCP tool refuse the same way: a 503 page, an isError result', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const mcp = new Client({ name: 'sextant-test', version: '1.0.0' })
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: user.auth } }),
  )
  await sql`create trigger refuse_job before insert on pgboss.job
    for each row when (new.name = 'research.run') execute function refuse_write()`.execute(app.db)
  try {
    const before = await written(user.account.id)
    const page = await postForm(app.url, '/dashboard', { topic: 'Grid storage', depth: 'quick' }, cookie)
    expect(page.status).toBe(503)
    expect(await page.text()).toContain('could not be queued')

    const tool = await mcp.callTool({ name: 'research_brief', arguments: { topic: 'Grid storage', depth: 'quick' } })
    expect(tool.isError).toBe(true)
    expect(JSON.stringify(tool.content)).toContain('could not be queued')
    expect(await written(user.account.id)).toEqual(before)
  } finally {
    await sql`drop trigger refuse_job on pgboss.job`.execute(app.db)
    await mcp.close()
  }
})

test("a series' run now refuses the same way, over the API and on the page, and its slot stays pending", async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const first = await postBrief(app.fetch, user.auth, {
    topic: 'Tidal power',
    depth: 'quick',
    recurring: true,
    every: '1d',
  } as BriefInput)
  expect(first.response.status).toBe(202)
  await waitForRun(app.fetch, user.auth, first.body.runId)
  const { recurring } = await (await app.fetch(`/api/briefs/${first.body.runId}`, { headers: user.auth })).json()
  const seriesId: string = recurring.seriesId
  const series = () => app.db.selectFrom('series').select(['next_run_at']).where('id', '=', seriesId).executeTakeFirst()
  const scheduled = await series()
  await sql`create trigger refuse_job before insert on pgboss.job
    for each row when (new.name = 'research.run') execute function refuse_write()`.execute(app.db)
  try {
    const before = await written(user.account.id)
    const response = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
    await expectRefused(response, await response.json())
    const page = await postForm(app.url, '/dashboard/series', { intent: 'run', seriesId }, cookie)
    expect(page.status).toBe(503)
    expect(await page.text()).toContain('could not be queued')
    expect(await written(user.account.id)).toEqual(before)
    // The claim of the slot rolled back with the start: the schedule has not moved.
    expect(await series()).toEqual(scheduled)
  } finally {
    await sql`drop trigger refuse_job on pgboss.job`.execute(app.db)
  }
  const now = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
  expect(now.status).toBe(202)
})
