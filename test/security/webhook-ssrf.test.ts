// SSRF through webhooks: a brief's webhookUrl or an endpoint URL that points at loopback, a private
// network, cloud metadata (directly, through an IPv6 spelling, or through a DNS name) is refused
// with a 400 that says why, before anything is started or stored. This app runs with the settings
// off (no WEBHOOK_ALLOW_HOSTS, no WEBHOOK_ALLOW_HTTP): test/webhooks.test.ts admits its own receiver
// with them, and shows the check made again at delivery time.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
})
afterAll(async () => {
  await app?.stop()
})

const REFUSED: Array<[string, RegExp]> = [
  ['https://127.0.0.1/hook', /points at 127\.0\.0\.1, a loopback address/],
  ['https://127.0.0.1:8080/hook', /points at 127\.0\.0\.1, a loopback address/],
  ['https://10.1.2.3/hook', /points at 10\.1\.2\.3, a private network address/],
  ['https://192.168.0.10/hook', /points at 192\.168\.0\.10, a private network address/],
  [
    'https://169.254.169.254/latest/meta-data/',
    /points at 169\.254\.169\.254, a link-local address \(where cloud metadata lives\)/,
  ],
  ['https://[::1]/hook', /points at ::1, a loopback address/],
  ['https://[::ffff:127.0.0.1]/hook', /a loopback address \(carried in an IPv6 ipv4Mapped address\)/],
  // A DNS name: /etc/hosts answers loopback for localhost.
  ['https://localhost/hook', /resolves to (127\.0\.0\.1|::1), a loopback address/],
  ['http://example.com/hook', /must be an https URL/],
  ['https://user:pw@example.com/hook', /must not carry a user name or password/],
]

test('a brief whose webhookUrl points at a private address is refused with a 400 saying why, and starts nothing', async () => {
  const user = await createTestAccount(app.db)
  for (const [url, why] of REFUSED) {
    const { response, body } = await postBrief(app.fetch, user.auth, {
      topic: 'webhook targets',
      depth: 'quick',
      webhookUrl: url,
    })
    expect(response.status, url).toBe(400)
    expect(response.headers.get('content-type'), url).toMatch(/^application\/problem\+json/)
    expect(body.detail, url).toMatch(/^webhookUrl /)
    expect(body.detail, url).toMatch(why)
  }
  const runs = await app.db.selectFrom('runs').select('id').where('account_id', '=', user.account.id).execute()
  expect(runs).toEqual([])
})

test('an endpoint URL at a private address is refused with a 400 saying why, and nothing is stored', async () => {
  const user = await createTestAccount(app.db)
  for (const [url, why] of REFUSED) {
    const response = await app.fetch('/api/webhooks/endpoints', {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url }),
    })
    expect(response.status, url).toBe(400)
    const body = await response.json()
    expect(body.detail, url).toMatch(/^url /)
    expect(body.detail, url).toMatch(why)
  }
  const listed = await (await app.fetch('/api/webhooks/endpoints', { headers: user.auth })).json()
  expect(listed).toEqual({ endpoints: [] })
})

test('the demo key can neither register endpoints nor send a brief’s events anywhere', async () => {
  const visitor = await createTestAccount(app.db, { keyKind: 'demo' })
  const response = await app.fetch('/api/webhooks/endpoints', { headers: visitor.auth })
  expect(response.status).toBe(403)
  const { response: brief, body } = await postBrief(app.fetch, visitor.auth, {
    topic: 'webhook targets',
    depth: 'quick',
    webhookUrl: 'https://hooks.example.com/sextant',
  })
  expect(brief.status).toBe(400)
  expect(body.detail).toMatch(/webhookUrl needs an account of your own/)
})
