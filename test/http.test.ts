import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('/healthz answers while the process is up', async () => {
  const response = await app.fetch('/healthz')
  expect(response.status).toBe(200)
  expect(await response.json()).toMatchObject({ status: 'ok', version: expect.any(String) })
})

test('/readyz reports the database, migrations and job system', async () => {
  const response = await app.fetch('/readyz')
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    status: 'ready',
    checks: {
      database: { ok: true, latencyMs: expect.any(Number) },
      migrations: { ok: true, pending: [] },
      jobs: { ok: true },
    },
  })
})

test('/dashboard renders with the stylesheet and nonce-bearing scripts allowed by the CSP', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const response = await app.fetch('/dashboard', { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  const html = await response.text()
  expect(html).toContain('<h1 class="text-2xl font-semibold tracking-tight">Dashboard</h1>')
  const stylesheet = html.match(/<link[^>]+rel="stylesheet"[^>]+href="(\/assets\/[^"]+\.css)"/)?.[1]
  expect(stylesheet).toBeDefined()
  const css = await app.fetch(stylesheet as string)
  expect(css.headers.get('cache-control')).toContain('immutable')
  expect(await css.text()).toContain('--color-indigo-700')

  const csp = response.headers.get('content-security-policy') ?? ''
  const nonce = csp.match(/'nonce-([^']+)'/)?.[1]
  expect(nonce).toBeDefined()
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1])
  expect(scripts.length).toBeGreaterThan(0)
  for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`)
  expect(response.headers.get('x-frame-options')).toBe('DENY')
})

test('each request gets an id, and a well-formed incoming id is kept', async () => {
  const fresh = await app.fetch('/healthz')
  expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  const kept = await app.fetch('/healthz', { headers: { 'X-Request-Id': 'trace-123' } })
  expect(kept.headers.get('x-request-id')).toBe('trace-123')
  const replaced = await app.fetch('/healthz', { headers: { 'X-Request-Id': 'bad id <script>' } })
  expect(replaced.headers.get('x-request-id')).not.toBe('bad id <script>')
})

test('an unknown API path answers a problem, not a page: 401 without a key, 404 with one', async () => {
  const anonymous = await app.fetch('/api/nothing-here')
  expect(anonymous.status).toBe(401)
  const user = await createTestAccount(app.db)
  const response = await app.fetch('/api/nothing-here', { headers: user.auth })
  expect(response.status).toBe(404)
  expect(response.headers.get('content-type')).toContain('application/problem+json')
  expect(await response.json()).toMatchObject({
    status: 404,
    title: 'Not Found',
    detail: 'There is no API endpoint GET /api/nothing-here.',
    requestId: expect.any(String),
  })
})

test('an unknown page renders the not-found page with status 404', async () => {
  const response = await app.fetch('/no-such-page')
  expect(response.status).toBe(404)
  expect(await response.text()).toContain('Page not found')
})

test('/readyz answers 503 once the job system has stopped', async () => {
  await app.jobs.stop()
  const response = await app.fetch('/readyz')
  expect(response.status).toBe(503)
  expect(await response.json()).toMatchObject({ status: 'not_ready', checks: { jobs: { ok: false } } })
})
