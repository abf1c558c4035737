// Who may start a run, and how many, through POST /api/briefs on the real app: five per hour per
// address, the demo key's three per address per day on top, and only runs that really start count
// (a brief refused for what it asks, a refusal by another limit, an idempotent replay spend nothing).
// A client may not claim a source only the server sets. The server's own local account is told which
// setting changes the limit; the public is not.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

const DEMO_KEY = `sx_admitd01_${'A'.repeat(32)}`
const DEMO = { Authorization: `Bearer ${DEMO_KEY}` }

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      TRUST_PROXY: '1',
      DEMO_KEY,
      LOCAL_DEV_AUTH: 'true',
      RATE_LIMIT_RUNS_PER_HOUR: '5',
      RATE_LIMIT_DEMO_PER_DAY: '3',
    },
  })
})
afterAll(() => app.stop())

function start(auth: Record<string, string>, address: string, brief: object = { topic: 'tidal power' }, extra = {}) {
  return app.fetch('/api/briefs', {
    method: 'POST',
    headers: { ...auth, 'X-Forwarded-For': address, 'Content-Type': 'application/json', ...extra },
    body: JSON.stringify(brief),
  })
}

/** What the demo limit has counted for an address, straight from the limiter's table. */
async function demoCounted(address: string): Promise<number> {
  const { rows } = await sql<{ hits: number }>`
    select coalesce(sum(hits), 0)::int as hits from rate_limit_slices where key = ${`demo:${address}`}`.execute(app.db)
  return rows[0]?.hits ?? 0
}

test('five runs per hour per address: the sixth is 429 with Retry-After and the policy headers', async () => {
  const user = await createTestAccount(app.db)
  for (let i = 1; i <= 5; i++) {
    const response = await start(user.auth, '198.51.100.1')
    expect(response.status).toBe(202)
    expect(response.headers.get('ratelimit-policy')).toBe('"runs";q=5;w=3600')
    expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"runs";r=${5 - i};t=\\d+$`))
  }
  const refused = await start(user.auth, '198.51.100.1')
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  const problem = await refused.json()
  expect(problem).toMatchObject({ limit: 'runs', quota: 5, detail: expect.stringMatching(/5 research runs per hour/) })
  // The public is not told how the server is configured.
  expect(problem.detail).not.toContain('RATE_LIMIT')
  // Another address has its own quota.
  expect((await start(user.auth, '198.51.100.2')).status).toBe(202)
})

test('the demo key: three runs per address per day, counted on top of the runs limit', async () => {
  for (let i = 0; i < 3; i++) {
    const response = await start(DEMO, '203.0.113.5')
    expect(response.status).toBe(202)
    expect(response.headers.get('ratelimit-policy')).toBe('"demo";q=3;w=86400, "runs";q=5;w=3600')
  }
  const refused = await start(DEMO, '203.0.113.5')
  expect(refused.status).toBe(429)
  expect(await refused.json()).toMatchObject({
    limit: 'demo',
    detail: expect.stringMatching(/demo key 3 times per day/),
  })
})

test('a demo request refused for what it asks (recurring, or invalid) spends nothing of the day', async () => {
  for (let i = 0; i < 3; i++) {
    expect((await start(DEMO, '203.0.113.6', { topic: 'weekly', recurring: true })).status).toBe(403)
    expect((await start(DEMO, '203.0.113.6', { topic: '' })).status).toBe(400)
  }
  for (let i = 0; i < 3; i++) expect((await start(DEMO, '203.0.113.6')).status).toBe(202)
})

test('a demo request refused by the runs limit spends nothing of the day', async () => {
  // The address has used its runs per hour with an account's key: the demo request is refused by
  // that limit, and the demo day is not charged for it.
  const user = await createTestAccount(app.db)
  for (let i = 0; i < 5; i++) expect((await start(user.auth, '203.0.113.7')).status).toBe(202)
  for (let i = 0; i < 3; i++) {
    const refused = await start(DEMO, '203.0.113.7')
    expect(refused.status).toBe(429)
    expect((await refused.json()).limit).toBe('runs')
  }
  expect(await demoCounted('203.0.113.7')).toBe(0)
})

test('the trial page is admitted the same way: a trial refused by the runs limit spends nothing of the day', async () => {
  const user = await createTestAccount(app.db)
  for (let i = 0; i < 5; i++) expect((await start(user.auth, '203.0.113.8')).status).toBe(202)
  const trial = await app.fetch('/trial', {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(app.url).origin,
      'X-Forwarded-For': '203.0.113.8',
    },
    body: new URLSearchParams({ topic: 'tidal power' }),
  })
  expect(trial.status).toBe(429)
  expect(await trial.text()).toContain('5 research runs per hour')
  expect(trial.headers.get('set-cookie')).toBeNull() // no trial account was made for it
  expect(await demoCounted('203.0.113.8')).toBe(0)
})

test('an idempotent replay answers the first response and does not count as a new run', async () => {
  const user = await createTestAccount(app.db)
  const first = await start(user.auth, '198.51.100.9', { topic: 'heat pumps' }, { 'Idempotency-Key': 'once-1' })
  expect(first.status).toBe(202)
  const { runId } = await first.json()
  for (let i = 0; i < 4; i++) {
    const replay = await start(user.auth, '198.51.100.9', { topic: 'heat pumps' }, { 'Idempotency-Key': 'once-1' })
    expect(replay.status).toBe(202)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect((await replay.json()).runId).toBe(runId)
  }
  // Four more distinct runs fit in the hour's five; the sixth run does not.
  for (let i = 0; i < 4; i++) expect((await start(user.auth, '198.51.100.9')).status).toBe(202)
  expect((await start(user.auth, '198.51.100.9')).status).toBe(429)
  const runs = await app.db.selectFrom('runs').select('id').where('account_id', '=', user.account.id).execute()
  expect(runs).toHaveLength(5)
})

test('a client may claim only the sources of a direct call: slack, github, trial and schedule are refused', async () => {
  const user = await createTestAccount(app.db)
  for (const source of ['slack', 'github', 'trial', 'schedule']) {
    const refused = await start(user.auth, '198.51.100.11', { topic: 'wind', source })
    expect(refused.status).toBe(400)
    const problem = await refused.json()
    expect(problem.errors).toEqual([
      { path: 'source', message: expect.stringMatching(/^source must be one of api, dashboard, mcp/) },
    ])
  }
  expect(await app.db.selectFrom('runs').select('id').where('account_id', '=', user.account.id).execute()).toEqual([])
  for (const source of ['api', 'dashboard', 'mcp']) {
    const started = await start(user.auth, '198.51.100.11', { topic: 'wind', source })
    expect(started.status).toBe(202)
    const view = await (await app.fetch(`/api/briefs/${(await started.json()).runId}`, { headers: user.auth })).json()
    expect(view.source).toBe(source)
  }
})

test('the local account under local development auth is told which setting sets the limit', async () => {
  for (let i = 0; i < 5; i++) expect((await start({}, '127.0.0.1')).status).toBe(202)
  const refused = await start({}, '127.0.0.1')
  expect(refused.status).toBe(429)
  expect((await refused.json()).detail).toMatch(
    /5 research runs per hour from one address\. Try again in .+\. RATE_LIMIT_RUNS_PER_HOUR sets this limit on this server\./,
  )
})
