// Every kind of response carries the security headers server/http/security-headers.ts sets (helmet,
// with our CSP): pages, API answers, problems of every status, a 500, event streams, static files
// and health probes. Pages' scripts all carry the response's CSP nonce, which is new per response.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { postBrief } from '#test/support/runs.ts'

/** What every response carries, whatever it is. */
const ALWAYS: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'x-frame-options': /^DENY$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
  // Browsers ignore it over plain HTTP and keep it over HTTPS (behind Fly's TLS): always sent.
  'strict-transport-security': /^max-age=(3153600\d|[4-9]\d{7,}); includeSubDomains$/,
  'cross-origin-opener-policy': /^same-origin$/,
  'cross-origin-resource-policy': /^same-origin$/,
  'origin-agent-cluster': /^\?1$/,
  'x-dns-prefetch-control': /^off$/,
  'x-download-options': /^noopen$/,
  'x-permitted-cross-domain-policies': /^none$/,
  'x-xss-protection': /^0$/,
}
/** The CSP's fixed directives (production: no 'unsafe-inline', no ws:). */
const CSP = [
  "default-src 'self'",
  /script-src 'self' 'strict-dynamic' 'nonce-[A-Za-z0-9+/=]{16,}'/,
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]

let app: TestApp
let user: Awaited<ReturnType<typeof createTestAccount>>
let cookie: string
beforeAll(async () => {
  app = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1000', SLACK_SIGNING_SECRET: 's' } })
  user = await createTestAccount(app.db)
  cookie = await logIn(app.url, user.email, user.password)
})
afterAll(() => app.stop())

function expectSecurityHeaders(response: Response, what: string) {
  for (const [name, value] of Object.entries(ALWAYS)) {
    expect(response.headers.get(name), `${what}: ${name}`).toMatch(value)
  }
  expect(response.headers.get('x-powered-by'), what).toBeNull()
  const csp = response.headers.get('content-security-policy') ?? ''
  for (const directive of CSP) {
    if (typeof directive === 'string') expect(csp, `${what}: CSP`).toContain(directive)
    else expect(csp, `${what}: CSP`).toMatch(directive)
  }
  expect(csp, `${what}: CSP`).not.toMatch(/unsafe-inline|unsafe-eval|\bws:/)
}

/** The CSP nonce, and that every script in the page carries it. */
function expectNoncedScripts(response: Response, html: string, what: string): string {
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1]
  expect(nonce, what).toBeDefined()
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)].map((match) => match[1] as string)
  expect(scripts.length, `${what}: no scripts`).toBeGreaterThan(0)
  for (const attributes of scripts)
    expect(attributes, `${what}: a script without the nonce`).toContain(`nonce="${nonce}"`)
  return nonce as string
}

test('pages, including redirects, a 404, a refused form and a page without a session', async () => {
  const pages: Array<[string, RequestInit, number]> = [
    ['/', {}, 200],
    ['/login', {}, 200],
    ['/signup', {}, 200],
    ['/trial', {}, 200],
    ['/dashboard', {}, 302],
    ['/dashboard', { headers: { Cookie: cookie } }, 200],
    ['/dashboard/keys', { headers: { Cookie: cookie } }, 200],
    ['/dashboard/no-such-page', { headers: { Cookie: cookie } }, 404],
  ]
  const nonces = new Set<string>()
  for (const [path, init, status] of pages) {
    const response = await app.fetch(path, { ...init, redirect: 'manual' })
    expect(response.status, path).toBe(status)
    expectSecurityHeaders(response, path)
    const html = await response.text()
    if (status !== 302) nonces.add(expectNoncedScripts(response, html, path))
  }
  expect(nonces.size, 'a nonce was reused across responses').toBe(pages.length - 1)
  const refused = await postForm(app.url, '/login', { email: 'not an email', password: '' })
  expect(refused.status).toBe(400)
  expectSecurityHeaders(refused, 'a refused login')
  expectNoncedScripts(refused, await refused.text(), 'a refused login')
  const foreign = await fetch(new URL('/login', app.url), {
    method: 'POST',
    headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'email=a',
  })
  expect(foreign.status).toBe(403)
  expectSecurityHeaders(foreign, 'a cross-site form post')
  // The same host under another scheme is another origin; the page's own origin is not refused.
  const origin = new URL(app.url)
  for (const [scheme, status] of [
    ['https:', 403],
    ['http:', 400],
  ] as const) {
    const response = await fetch(new URL('/login', app.url), {
      method: 'POST',
      headers: { Origin: `${scheme}//${origin.host}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a',
    })
    expect(response.status, scheme).toBe(status)
  }
})

test('API answers and problems of every status, event streams, webhooks, health and static files', async () => {
  const json = { ...user.auth, 'Content-Type': 'application/json' }
  const { body: run } = await postBrief(app.fetch, user.auth, { topic: 'headers', depth: 'quick' })
  const requests: Array<[string, RequestInit, number]> = [
    ['/api/openapi.json', {}, 200],
    ['/api/frameworks', {}, 200],
    ['/api/me', { headers: user.auth }, 200],
    ['/api/me', {}, 401],
    ['/api/briefs?limit=0', { headers: user.auth }, 400],
    ['/api/briefs/00000000-0000-4000-8000-000000000000', { headers: user.auth }, 404],
    ['/api/no-such-endpoint', { headers: user.auth }, 404],
    ['/api/me', { method: 'PUT', headers: user.auth }, 405],
    ['/api/briefs', { method: 'POST', headers: json, body: `{"topic":"${'x'.repeat(70_000)}"}` }, 413],
    ['/api/briefs', { method: 'POST', headers: { ...user.auth, 'Content-Type': 'text/plain' }, body: 'x' }, 415],
    ['/api/webhooks/slack', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }, 401],
    ['/api/webhooks/github', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }, 503],
    ['/healthz', {}, 200],
    ['/readyz', {}, 200],
    ['/favicon.svg', {}, 200],
  ]
  for (const [path, init, status] of requests) {
    const response = await app.fetch(path, init)
    expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(status)
    expectSecurityHeaders(response, `${init.method ?? 'GET'} ${path} ${status}`)
    if (status >= 400) expect(response.headers.get('content-type'), path).toMatch(/^application\/problem\+json/)
    await response.arrayBuffer()
  }
  const controller = new AbortController()
  const stream = await app.fetch(`/api/briefs/${run.runId}/events`, { headers: user.auth, signal: controller.signal })
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
  expectSecurityHeaders(stream, 'an event stream')
  controller.abort()
  // A script the page loads, found through the page.
  const html = await (await app.fetch('/login')).text()
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"|<link[^>]+href="(\/assets\/[^"]+\.js)"/.exec(html)
  const asset = await app.fetch(script?.[1] ?? script?.[2] ?? '')
  expect(asset.status).toBe(200)
  expectSecurityHeaders(asset, 'a static script')
})

test('a 500 from the API and from a page still carries every header, and says nothing of the cause', async () => {
  // Break the database under the app: the next key check and session lookup fail.
  const other = await createTestAccount(app.db) // a key not yet cached by the verifier
  const session = await logIn(app.url, other.email, other.password)
  await sql`alter table api_keys rename to api_keys_gone`.execute(app.db)
  await sql`alter table sessions rename to sessions_gone`.execute(app.db)
  try {
    const api = await app.fetch('/api/me', { headers: other.auth })
    expect(api.status).toBe(500)
    expectSecurityHeaders(api, 'an API 500')
    const problem = await api.text()
    expect(problem).not.toMatch(/api_keys|relation|postgres|at .*\.ts/i)
    const page = await app.fetch('/dashboard', { headers: { Cookie: session } })
    expect(page.status).toBe(500)
    expectSecurityHeaders(page, 'a page 500')
    const html = await page.text()
    expectNoncedScripts(page, html, 'a page 500')
    expect(html).not.toMatch(/relation "?sessions"? does not exist|sessions_gone|at .*\.ts:/i)
  } finally {
    await sql`alter table api_keys_gone rename to api_keys`.execute(app.db)
    await sql`alter table sessions_gone rename to sessions`.execute(app.db)
  }
})
