// Limits that minting keys must not multiply: an account has at most API_KEYS_PER_ACCOUNT active
// keys (through the API and the keys page alike), and its MCP tool calls are counted per account,
// all its keys together, as well as per key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      API_KEYS_PER_ACCOUNT: '3',
      RATE_LIMIT_MCP_PER_HOUR: '120',
      RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: '3',
    },
  })
})
afterAll(() => app.stop())

function createKey(auth: Record<string, string>, name: string) {
  return app.fetch('/api/keys', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  })
}

async function activeKeys(accountId: string) {
  const rows = await app.db
    .selectFrom('api_keys')
    .select('id')
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute()
  return rows.length
}

test('an account has at most API_KEYS_PER_ACCOUNT active keys; revoking one makes room', async () => {
  const user = await createTestAccount(app.db) // its first key
  const made = await Promise.all([1, 2, 3, 4].map((i) => createKey(user.auth, `key ${i}`)))
  const statuses = made.map((response) => response.status).sort()
  expect(statuses).toEqual([201, 201, 409, 409])
  const refused = made.find((response) => response.status === 409) as Response
  expect(refused.headers.get('content-type')).toContain('application/problem+json')
  expect((await refused.json()).detail).toMatch(/at most 3 active API keys/)
  expect(await activeKeys(user.account.id)).toBe(3)

  const revoked = await app.fetch(`/api/keys/${user.prefix}`, { method: 'DELETE', headers: user.auth })
  expect(revoked.status).toBe(200)
  const other = (await Promise.all(made.filter((response) => response.status === 201).map((r) => r.json())))[0]
  const auth = { Authorization: `Bearer ${other.key}` }
  expect((await createKey(auth, 'replacement')).status).toBe(201)
  expect((await createKey(auth, 'one too many')).status).toBe(409)
})

test('the keys page keeps to the same cap', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  for (const name of ['laptop', 'ci'])
    expect((await postForm(app.url, '/dashboard/keys', { name }, cookie)).status).toBe(200)
  const refused = await postForm(app.url, '/dashboard/keys', { name: 'one too many' }, cookie)
  expect(refused.status).toBe(409)
  expect(await refused.text()).toContain('at most 3 active API keys')
  expect(await activeKeys(user.account.id)).toBe(3)
})

test('MCP tool calls count per account across all its keys: a new key brings no new allowance', async () => {
  const user = await createTestAccount(app.db)
  const second = await (await createKey(user.auth, 'second')).json()
  const third = await (await createKey(user.auth, 'third')).json()
  const keys = [user.key, second.key as string, third.key as string]
  const clients = await Promise.all(
    keys.map(async (key) => {
      const client = new Client({ name: 'account-limits', version: '1.0.0' })
      const transport = new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      })
      await client.connect(transport)
      return client
    }),
  )
  for (const client of clients) {
    expect((await client.callTool({ name: 'list_frameworks', arguments: {} })).isError).toBeFalsy()
  }
  const refused = await app.fetch('/api/mcp', {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${keys[0]}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_frameworks', arguments: {} },
    }),
  })
  expect(refused.status).toBe(429)
  expect(await refused.json()).toMatchObject({ limit: 'mcp-account', quota: 3 })
  for (const client of clients) await client.close()

  // Another account is untouched.
  const other = await createTestAccount(app.db)
  const client = new Client({ name: 'account-limits', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: other.auth } }),
  )
  expect((await client.callTool({ name: 'list_frameworks', arguments: {} })).isError).toBeFalsy()
  await client.close()
})
