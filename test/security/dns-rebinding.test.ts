// DNS rebinding against a development server: a page on attacker.test rebinds its name to
// 127.0.0.1, so the browser's requests reach us from loopback, with `Host: attacker.test` and that
// page's Origin. Local development auth must not answer them (it needs a loopback Host), and MCP's
// origin check must compare with where this server is reached, not with the Host the page chose.
import http from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

const PUBLIC_URL = 'https://sextant.example'

let app: TestApp
let port: number
beforeAll(async () => {
  app = await startTestApp({ env: { RUN_ROLE: 'web', LOCAL_DEV_AUTH: 'true', PUBLIC_URL } })
  port = Number(new URL(app.url).port)
})
afterAll(() => app.stop())

/** A raw request to our loopback port with the Host (and headers) a rebinding browser would send. */
function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        text += chunk
        // An SSE stream that opened would never end on its own.
        if (res.headers['content-type']?.startsWith('text/event-stream')) res.destroy()
      })
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const toolCall = (name: string, args: object) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }

test('with Host: attacker.test and no key, local development auth does not apply: 401 everywhere', async () => {
  const attacker = { Host: `attacker.test:${port}`, Origin: `http://attacker.test:${port}` }
  const list = await request('GET', '/api/briefs', { Host: attacker.Host })
  expect(list.status).toBe(401)
  const mint = await request(
    'POST',
    '/api/keys',
    { ...attacker, 'Content-Type': 'application/json' },
    JSON.stringify({ name: 'stolen' }),
  )
  expect(mint.status).toBe(401)
  expect(mint.text).not.toMatch(/sx_[a-z0-9]{8}_/)
  const exported = await request(
    'POST',
    '/api/mcp',
    { ...attacker, ...mcpHeaders },
    toolCall('export_topic', { topic: 'anything' }),
  )
  expect(exported.status).toBe(401)
  expect((await request('GET', '/api/mcp/sse', attacker)).status).toBe(401)
  expect(await app.db.selectFrom('api_keys').select('name').where('name', '=', 'stolen').execute()).toEqual([])
})

test('from loopback to a loopback name, local development auth still works', async () => {
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
    expect((await request('GET', '/api/briefs', { Host: host })).status, host).toBe(200)
  }
})

test('MCP refuses an Origin that is not this server, even when the Host matches it', async () => {
  const user = await createTestAccount(app.db)
  const call = (headers: Record<string, string>) =>
    request('POST', '/api/mcp', { ...user.auth, ...mcpHeaders, ...headers }, toolCall('list_frameworks', {}))

  const rebound = await call({ Host: `attacker.test:${port}`, Origin: `http://attacker.test:${port}` })
  expect(rebound.status).toBe(403)
  expect(rebound.text).toContain('MCP requests from the origin http://attacker.test')
  expect((await call({ Origin: 'https://evil.example' })).status).toBe(403)

  // Our own pages (PUBLIC_URL), local tools on a loopback name, and clients that send no Origin pass.
  const passing: Array<Record<string, string>> = [{ Origin: PUBLIC_URL }, { Origin: 'http://localhost:5173' }, {}]
  for (const headers of passing) {
    expect((await call(headers)).status, JSON.stringify(headers)).toBe(200)
  }
})
