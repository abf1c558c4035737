// A budget that is no budget (zero, negative, too large, a fraction of a token, text) is refused on
// every surface with the range it must fall in, and starts nothing; the trial page takes none.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

const TOKENS = 'must be a whole number of tokens from 1,000 to 10,000,000'
const DOLLARS = 'must be an amount in dollars from 0.01 to 1,000, in whole cents'
const BAD_TOKENS: unknown[] = [0, -1, 999, 1e12, 1.5, 1500.5, 'abc', '50000', null, true, {}]
const BAD_DOLLARS: unknown[] = [0, -0.5, 0.001, 0.125, 1000.01, 1e12, 'abc', '0.50', null]

let app: TestApp
beforeAll(async () => {
  // Valid briefs are queued and never worked, so the database holds still between requests.
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
      RATE_LIMIT_DEMO_PER_DAY: '1000',
      RUN_MAX_TOKENS: '200000',
      OPENAI_INPUT_DOLLARS_PER_MILLION: '0.4',
      OPENAI_OUTPUT_DOLLARS_PER_MILLION: '1.6',
    },
  })
})
afterAll(() => app.stop())

test('REST: a bad budget is a 400 problem naming the field and its range, and changes nothing', async () => {
  const user = await createTestAccount(app.db)
  const before = await snapshotState(app.db)
  const cases = [
    ...BAD_TOKENS.map((maxTokens) => [{ maxTokens }, 'maxTokens', TOKENS] as const),
    ...BAD_DOLLARS.map((maxCostDollars) => [{ maxCostDollars }, 'maxCostDollars', DOLLARS] as const),
  ]
  for (const [budget, field, message] of cases) {
    const response = await app.fetch('/api/briefs', {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: 'tidal power', ...budget }),
    })
    const label = JSON.stringify(budget)
    expect(response.status, label).toBe(400)
    expect(response.headers.get('content-type'), label).toMatch(/^application\/problem\+json/)
    expect((await response.json()).errors, label).toEqual([{ path: field, message }])
  }
  expectSameState(await snapshotState(app.db), before, 'refused budgets')
})

test('MCP: research_brief refuses a bad budget with its range, as a tool error that starts nothing', async () => {
  const user = await createTestAccount(app.db)
  const client = new Client({ name: 'budget-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: user.auth } }),
  )
  try {
    const before = await snapshotState(app.db)
    for (const [args, message] of [
      [{ maxTokens: 0 }, TOKENS],
      [{ maxTokens: 1.5 }, TOKENS],
      [{ maxTokens: 1e12 }, TOKENS],
      [{ maxCostDollars: -1 }, DOLLARS],
      [{ maxCostDollars: 0.125 }, DOLLARS],
    ] as const) {
      const result = await client.callTool({ name: 'research_brief', arguments: { topic: 'tidal power', ...args } })
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? ''
      expect(result.isError, JSON.stringify(args)).toBe(true)
      expect(text, JSON.stringify(args)).toContain(message)
    }
    expectSameState(await snapshotState(app.db), before, 'refused MCP budgets')
  } finally {
    await client.close()
  }
})

test('dashboard: a bad budget comes back next to its field, as typed, and starts nothing', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  // The hints say what an empty field means on this server: its default, and tokens priced.
  const form = await (await app.fetch('/dashboard', { headers: { Cookie: cookie } })).text()
  expect(form).toContain('Left empty, this server stops at 200,000.')
  expect(form).toContain('searches and model tokens at this server’s prices')
  const before = await snapshotState(app.db)
  const cases: Array<[Record<string, string>, string, string]> = [
    [{ maxTokens: 'lots' }, 'maxTokens', 'Enter a whole number of tokens from 1,000 to 10,000,000'],
    [{ maxTokens: '0' }, 'maxTokens', 'Enter a whole number of tokens from 1,000 to 10,000,000'],
    [{ maxTokens: '12.5' }, 'maxTokens', 'Enter a whole number of tokens from 1,000 to 10,000,000'],
    [{ maxCostDollars: '-1' }, 'maxCostDollars', 'Enter dollars and cents from 0.01 to 1,000'],
    [{ maxCostDollars: '$5,000' }, 'maxCostDollars', 'Enter dollars and cents from 0.01 to 1,000'],
  ]
  for (const [budget, field, message] of cases) {
    const response = await postForm(app.url, '/dashboard', { topic: 'tidal power', depth: 'quick', ...budget }, cookie)
    const label = JSON.stringify(budget)
    expect(response.status, label).toBe(400)
    const html = (await response.text()).replaceAll('<!-- -->', '')
    expect(html, label).toMatch(new RegExp(`<p id="field-${field}-error" class="[^"]*">${message}`))
    expect(html, label).toMatch(new RegExp(`name="${field}"[^>]*value="${budget[field]?.replace('$', '\\$')}"`))
    expect(html, label).toMatch(new RegExp(`aria-invalid="true"[^>]*name="${field}"`))
  }
  expectSameState(await snapshotState(app.db), before, 'refused dashboard budgets')
})

test('the trial page takes no budget: fields posted to it are ignored, and its run has none', async () => {
  const base = new URL(app.url)
  const started = await fetch(new URL('/trial', base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base.origin },
    body: new URLSearchParams({ topic: 'tidal power', maxTokens: '1', maxCostDollars: 'lots' }),
  })
  expect(started.status).toBe(302)
  const runId = new URL(started.headers.get('location') as string, base).searchParams.get('run') as string
  const row = await app.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow()
  const brief = createRunSeals(app.ring).brief(row)
  expect(brief).toMatchObject({ topic: 'tidal power', source: 'trial', depth: 'quick' })
  expect(brief).not.toHaveProperty('maxTokens')
  expect(brief).not.toHaveProperty('maxCostDollars')
})
