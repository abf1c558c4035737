// The public demo key is shared, its callers are not: each client address is a demo visitor with an
// account of its own. Another address with the same key cannot list, read or cancel a visitor's
// runs, over REST or MCP; the demo key cannot schedule recurring briefs; its MCP allowance is per
// address, so one visitor cannot use up everyone's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEMO_ACCOUNT_EMAIL } from '#server/accounts/contract.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

const DEMO_KEY = `sx_demovis1_${'V'.repeat(32)}`
const SECRET_TOPIC = 'my secret acquisition target: Acme Corp'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      TRUST_PROXY: '1',
      DEMO_KEY,
      RATE_LIMIT_RUNS_PER_HOUR: '100',
      RATE_LIMIT_DEMO_PER_DAY: '100',
      RATE_LIMIT_MCP_PER_HOUR: '2',
      RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: '2',
    },
  })
})
afterAll(() => app.stop())

function asVisitor(address: string) {
  return (path: string, init: RequestInit = {}) =>
    app.fetch(path, {
      ...init,
      headers: {
        Authorization: `Bearer ${DEMO_KEY}`,
        'X-Forwarded-For': address,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    })
}

async function mcpClient(address: string) {
  const client = new Client({ name: 'demo-visitor', version: '1.0.0' })
  const headers = { Authorization: `Bearer ${DEMO_KEY}`, 'X-Forwarded-For': address }
  await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers } }))
  return client
}

test('a visitor on another address cannot list, read or cancel a demo visitor’s run', async () => {
  const owner = asVisitor('198.51.100.1')
  const other = asVisitor('203.0.113.2')
  const started = await owner('/api/briefs', { method: 'POST', body: JSON.stringify({ topic: SECRET_TOPIC }) })
  expect(started.status).toBe(202)
  const { runId } = await started.json()

  const list = await other('/api/briefs')
  expect(list.status).toBe(200)
  expect(await list.text()).not.toContain('Acme')
  const read = await other(`/api/briefs/${runId}`)
  expect(read.status).toBe(404)
  expect(await read.text()).not.toContain('Acme')
  expect((await other(`/api/briefs/${runId}/events`)).status).toBe(404)
  expect((await other(`/api/briefs/${runId}`, { method: 'DELETE' })).status).toBe(404)

  const client = await mcpClient('203.0.113.3')
  const status = await client.callTool({ name: 'get_run_status', arguments: { runId } })
  expect(status.isError).toBe(true)
  expect(JSON.stringify(status)).not.toContain('Acme')
  await client.close()

  // The owner still sees it, still running.
  const mine = await owner(`/api/briefs/${runId}`)
  expect(mine.status).toBe(200)
  expect(await mine.json()).toMatchObject({ topic: SECRET_TOPIC, status: 'running' })

  // It belongs to the visitor's own account, not to the account that holds the demo key.
  const row = await app.db
    .selectFrom('runs')
    .innerJoin('accounts', 'accounts.id', 'runs.account_id')
    .select(['accounts.kind', 'accounts.email'])
    .where('runs.id', '=', runId)
    .executeTakeFirstOrThrow()
  expect(row.kind).toBe('demo')
  expect(row.email).not.toBe(DEMO_ACCOUNT_EMAIL)
})

test('the demo key cannot start a recurring brief, and the refusal creates nothing', async () => {
  const visitor = asVisitor('198.51.100.4')
  const refused = await visitor('/api/briefs', {
    method: 'POST',
    body: JSON.stringify({ topic: 'weekly competitor watch', recurring: true }),
  })
  expect(refused.status).toBe(403)
  expect(refused.headers.get('content-type')).toContain('application/problem+json')
  expect((await refused.json()).detail).toMatch(/Recurring briefs need an account of your own/)
  const series = await app.db.selectFrom('series').select('id').execute()
  expect(series).toEqual([])
  expect(await (await visitor('/api/series')).json()).toEqual({ series: [] })

  const client = await mcpClient('198.51.100.5')
  const viaMcp = await client.callTool({
    name: 'research_brief',
    arguments: { topic: 'weekly watch', recurring: true },
  })
  expect(viaMcp.isError).toBe(true)
  expect(JSON.stringify(viaMcp.content)).toMatch(/Recurring briefs need an account of your own/)
  await client.close()
  expect(await app.db.selectFrom('series').select('id').execute()).toEqual([])
})

test('GET /api/me names the visitor’s own account, before and after its first run', async () => {
  const visitor = asVisitor('198.51.100.12')
  const before = await (await visitor('/api/me')).json()
  expect(before).toMatchObject({ account: { kind: 'demo' }, auth: { demo: true } })
  expect(before.account.email).not.toBe(DEMO_ACCOUNT_EMAIL)
  expect((await visitor('/api/briefs', { method: 'POST', body: JSON.stringify({ topic: 'wind' }) })).status).toBe(202)
  expect((await (await visitor('/api/me')).json()).account).toEqual(before.account)
  const elsewhere = await (await asVisitor('203.0.113.12')('/api/me')).json()
  expect(elsewhere.account.id).not.toBe(before.account.id)
})

test('the demo key cannot mint keys', async () => {
  const response = await asVisitor('198.51.100.6')('/api/keys', { method: 'POST', body: JSON.stringify({ name: 'x' }) })
  expect(response.status).toBe(403)
})

test('the demo key’s MCP allowance is per address: one visitor using theirs leaves the others’ alone', async () => {
  const first = await mcpClient('198.51.100.7')
  for (let i = 0; i < 2; i++) {
    const result = await first.callTool({ name: 'list_frameworks', arguments: {} })
    expect(result.isError).toBeFalsy()
  }
  await expect(first.callTool({ name: 'list_frameworks', arguments: {} })).rejects.toThrow(/429|MCP tool calls/)
  await first.close()

  const second = await mcpClient('203.0.113.8')
  const result = await second.callTool({ name: 'list_frameworks', arguments: {} })
  expect(result.isError).toBeFalsy()
  await second.close()
})
