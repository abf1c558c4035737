// Signed outbound webhooks on the real job system with a short clock: the events a run owes, signed
// so that svix's independent Standard Webhooks implementation verifies them; a brief's webhookUrl
// signed with the account's secret; a quiet notify:changes run sends nothing. The receiver is on
// 127.0.0.1, admitted by the test-only WEBHOOK_ALLOW_HOSTS (test/security/webhook-ssrf.test.ts shows
// loopback refused without it).
import { createHmac } from 'node:crypto'
import { Webhook } from 'svix'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type Received, startWebhookReceiver, type WebhookReceiver } from '#test/support/stub-webhook-receiver.ts'

let app: TestApp
let receiver: WebhookReceiver
let exa: StubExa
type Auth = Record<string, string>
const PUBLIC_URL = 'https://sextant.example'

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  exa = await startStubExa()
  app = await startTestApp({
    env: {
      EXA_API_KEY: 'exa-test-key',
      EXA_BASE_URL: exa.url,
      PUBLIC_URL,
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_RETRY_BASE: '1s',
      WEBHOOK_RETRY_MAX: '60s',
      WEBHOOK_MAX_ATTEMPTS: '10',
      WEBHOOK_DISABLE_AFTER: '4',
    },
  })
})

afterAll(async () => {
  await app?.stop()
  await receiver?.close()
  await exa?.close()
})

async function createEndpoint(auth: Auth, body: Record<string, unknown>) {
  const response = await app.fetch('/api/webhooks/endpoints', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { response, body: await response.json() }
}

async function listEndpoints(auth: Auth) {
  const response = await app.fetch('/api/webhooks/endpoints', { headers: auth })
  expect(response.status).toBe(200)
  return ((await response.json()) as { endpoints: Array<Record<string, unknown>> }).endpoints
}

/**
 * The event, once its signature is checked twice: by svix's Webhook (which throws on a bad one), and
 * by the Standard Webhooks spec written out here (svix 2.5 wraps the same standardwebhooks package
 * that signs, so the spec's own recipe is the independent check): base64 HMAC-SHA256, keyed with the
 * secret's base64 after `whsec_`, of `id.timestamp.body`, sent as `v1,<signature>`.
 */
function verified(secret: string, request: Received) {
  new Webhook(secret).verify(request.body, request.headers)
  const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature } = request.headers
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64')
  expect(signature?.split(' ')).toContain(`v1,${expected}`)
  expect(Math.abs(Number(timestamp) * 1000 - request.at)).toBeLessThan(60_000)
  return eventOf(request)
}

function eventOf(request: Received) {
  return JSON.parse(request.body) as { type: string; timestamp: string; data: Record<string, unknown> }
}

test('an endpoint gets run.completed and series.changed, signed so svix verifies them; a quiet run sends nothing', async () => {
  const user = await createTestAccount(app.db)
  const created = await createEndpoint(user.auth, { url: `${receiver.url}/all`, description: 'everything' })
  expect(created.response.status).toBe(201)
  const { secret, id } = created.body as { secret: string; id: string }
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
  expect(created.body).toMatchObject({ events: ['run.completed', 'run.failed', 'series.changed'], status: 'active' })
  // The secret is shown once: the list never carries it.
  const listed = await listEndpoints(user.auth)
  expect(listed).toHaveLength(1)
  expect(listed[0]).toMatchObject({ id, url: `${receiver.url}/all`, description: 'everything', status: 'active' })
  expect(JSON.stringify(listed)).not.toContain(secret)

  const started = await postBrief(app.fetch, user.auth, {
    topic: 'grid storage battery prices',
    depth: 'quick',
    timeframe: 'all',
    recurring: true,
  })
  expect(started.response.status).toBe(202)
  const runId = started.body.runId as string
  const run = await waitForRun(app.fetch, user.auth, runId)
  expect(run.status).toBe('complete')
  const requests = await receiver.waitFor(
    (request) => request.path === '/all' && eventOf(request).data.runId === runId,
    2,
  )
  const events = requests.map((request) => verified(secret, request))
  expect(events.map((event) => event.type).sort()).toEqual(['run.completed', 'series.changed'])
  const seriesId = (run as unknown as { recurring: { seriesId: string } }).recurring.seriesId
  const completed = events.find((event) => event.type === 'run.completed')
  expect(completed?.data).toMatchObject({
    runId,
    topic: 'grid storage battery prices',
    status: 'complete',
    seriesId,
    delta: { baseline: true, updated: 0, contradicted: 0 },
    links: { run: `${PUBLIC_URL}/dashboard/runs/${runId}`, api: `${PUBLIC_URL}/api/briefs/${runId}` },
  })
  expect((completed?.data.delta as { new: number } | undefined)?.new).toBeGreaterThan(0)
  // Each event is its own message: distinct ids, the Standard Webhooks headers all present.
  expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(2)
  // Another secret does not verify: the signature is really the endpoint's.
  const other = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
  expect(() => new Webhook(other).verify(requests[0]?.body ?? '', requests[0]?.headers ?? {})).toThrow()

  // Run again now: the web has nothing new, so notify:changes records the run and tells nobody.
  exa.setBehaviour('empty')
  const again = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
  expect(again.status).toBe(202)
  const quietId = ((await again.json()) as { runId: string }).runId
  expect((await waitForRun(app.fetch, user.auth, quietId)).status).toBe('complete')
  exa.setBehaviour('answer')
  // What a run's end owes is written in the transaction that ends it: a quiet run owes no row.
  expect(await app.db.selectFrom('deliveries').select('id').where('run_id', '=', quietId).execute()).toEqual([])
  // And nothing arrives for it, even after a later run's events have.
  const later = await postBrief(app.fetch, user.auth, {
    topic: 'sodium-ion batteries',
    depth: 'quick',
    timeframe: 'all',
  })
  await receiver.waitFor((request) => eventOf(request).data.runId === later.body.runId)
  expect(receiver.received.filter((request) => eventOf(request).data.runId === quietId)).toEqual([])
  await app.fetch(`/api/series/${seriesId}`, { method: 'DELETE', headers: user.auth })
})

test('a brief’s webhookUrl gets its run’s events, signed with the account’s secret from GET /api/webhooks/secret', async () => {
  const user = await createTestAccount(app.db)
  const started = await postBrief(app.fetch, user.auth, {
    topic: 'solid-state battery roadmap',
    depth: 'quick',
    timeframe: 'all',
    webhookUrl: `${receiver.url}/brief`,
  })
  expect(started.response.status).toBe(202)
  const runId = started.body.runId as string
  const [request] = await receiver.waitFor(
    (received) => received.path === '/brief' && eventOf(received).data.runId === runId,
  )
  const secretResponse = await app.fetch('/api/webhooks/secret', { headers: user.auth })
  expect(secretResponse.status).toBe(200)
  const { secret } = (await secretResponse.json()) as { secret: string }
  expect(secret).toMatch(/^whsec_/)
  expect(verified(secret, request as Received)).toMatchObject({
    type: 'run.completed',
    data: { runId, seriesId: null },
  })
  // Asked again, the same secret; rotated, a new one.
  const again = (await (await app.fetch('/api/webhooks/secret', { headers: user.auth })).json()) as { secret: string }
  expect(again.secret).toBe(secret)
  const rotated = await app.fetch('/api/webhooks/secret/rotate', { method: 'POST', headers: user.auth })
  expect(((await rotated.json()) as { secret: string }).secret).not.toBe(secret)
})

test('a failing endpoint is retried with growing waits and disabled after 4 failures in a row, saying why; a success resets the count', async () => {
  const user = await createTestAccount(app.db)
  receiver.answer('/down', 500)
  receiver.answer('/flaky', 500, 503, 204)
  const down = await createEndpoint(user.auth, { url: `${receiver.url}/down`, events: ['run.completed'] })
  const flaky = await createEndpoint(user.auth, { url: `${receiver.url}/flaky`, events: ['run.completed'] })
  expect([down.response.status, flaky.response.status]).toEqual([201, 201])
  const started = await postBrief(app.fetch, user.auth, {
    topic: 'sodium-ion grid storage',
    depth: 'quick',
    timeframe: 'all',
  })
  const runId = started.body.runId as string
  const ofRun = (path: string) => (request: Received) => request.path === path && eventOf(request).data.runId === runId

  // The flaky endpoint: 500, 503, then 204. The same message each time (one webhook-id), signed each time.
  const flakyRequests = await receiver.waitFor(ofRun('/flaky'), 3)
  expect(new Set(flakyRequests.map((request) => request.headers['webhook-id'])).size).toBe(1)
  for (const request of flakyRequests) verified(flaky.body.secret, request)

  // The one that is down: attempts 1 to 4, each wait at least WEBHOOK_RETRY_BASE (1 s) * 2^(n-1).
  const attempts = await receiver.waitFor(ofRun('/down'), 4)
  const waits = attempts.slice(1).map((request, index) => request.at - (attempts[index] as Received).at)
  expect(waits[0]).toBeGreaterThanOrEqual(900)
  expect(waits[1]).toBeGreaterThanOrEqual(1900)
  expect(waits[2]).toBeGreaterThanOrEqual(3900)

  const deadline = performance.now() + 20_000
  let endpoints = await listEndpoints(user.auth)
  while (
    endpoints.find((endpoint) => endpoint.id === down.body.id)?.status !== 'disabled' &&
    performance.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    endpoints = await listEndpoints(user.auth)
  }
  expect(endpoints.find((endpoint) => endpoint.id === down.body.id)).toMatchObject({
    status: 'disabled',
    consecutiveFailures: 4,
    disabledReason: '4 consecutive failed attempts; the last: the endpoint answered 500',
  })
  // The endpoint that recovered: active, its count back to zero.
  const recovered = endpoints.find((endpoint) => endpoint.id === flaky.body.id)
  expect(recovered).toMatchObject({ status: 'active', consecutiveFailures: 0 })
  expect(recovered?.lastSuccessAt).not.toBeNull()
  // Disabled, it gets no fifth attempt: the event is given up with the reason.
  const rows = await app.db
    .selectFrom('deliveries')
    .select(['status', 'attempts', 'last_error', 'target'])
    .where('run_id', '=', runId)
    .execute()
  expect(rows.find((row) => (row.target as { endpointId: string }).endpointId === down.body.id)).toMatchObject({
    status: 'failed',
    attempts: 4,
    last_error: 'the endpoint answered 500',
  })
  expect(rows.find((row) => (row.target as { endpointId: string }).endpointId === flaky.body.id)).toMatchObject({
    status: 'sent',
    attempts: 2,
  })
  // A later run's event does not go to the disabled endpoint.
  const later = await postBrief(app.fetch, user.auth, {
    topic: 'solid-state batteries',
    depth: 'quick',
    timeframe: 'all',
  })
  await receiver.waitFor((request) => request.path === '/flaky' && eventOf(request).data.runId === later.body.runId)
  expect(receiver.received.filter(ofRun('/down'))).toHaveLength(4)
  expect(
    receiver.received.filter((request) => request.path === '/down' && eventOf(request).data.runId === later.body.runId),
  ).toEqual([])
})

test('an endpoint that now points at a private address is refused at delivery time, not called', async () => {
  const user = await createTestAccount(app.db)
  const created = await createEndpoint(user.auth, { url: `${receiver.url}/moved`, events: ['run.completed'] })
  expect(created.response.status).toBe(201)
  // As if its DNS now answered a loopback address that is not the admitted receiver's host:port.
  const elsewhere = await startWebhookReceiver()
  try {
    await app.db
      .updateTable('webhook_endpoints')
      .set({ url: `${elsewhere.url}/moved` })
      .where('id', '=', created.body.id)
      .execute()
    const started = await postBrief(app.fetch, user.auth, { topic: 'flow batteries', depth: 'quick', timeframe: 'all' })
    const runId = started.body.runId as string
    await waitForRun(app.fetch, user.auth, runId)
    const deadline = performance.now() + 20_000
    let row: { attempts: number; last_error: string | null } | undefined
    while (!row?.last_error && performance.now() < deadline) {
      row = await app.db
        .selectFrom('deliveries')
        .select(['attempts', 'last_error'])
        .where('run_id', '=', runId)
        .executeTakeFirst()
      if (!row?.last_error) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(row?.last_error).toBe(
      'the URL points at 127.0.0.1, a loopback address: webhooks go to public addresses only',
    )
    expect(elsewhere.received).toEqual([])
  } finally {
    await elsewhere.close()
  }
})

test('the Webhooks page adds an endpoint (its secret shown once), shows a disabled one’s reason, rotates and deletes', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const page = async () => (await app.fetch('/dashboard/webhooks', { headers: { Cookie: cookie } })).text()
  expect(await page()).toContain('No endpoints yet.')
  expect(await (await app.fetch('/dashboard', { headers: { Cookie: cookie } })).text()).toContain(
    'href="/dashboard/webhooks"',
  )

  const refused = await postForm(
    app.url,
    '/dashboard/webhooks',
    { url: 'https://169.254.169.254/', events: 'run.failed' },
    cookie,
  )
  expect(refused.status).toBe(400)
  expect(await refused.text()).toContain('a link-local address (where cloud metadata lives)')

  const added = await postForm(
    app.url,
    '/dashboard/webhooks',
    { url: `${receiver.url}/page`, description: 'ops', events: 'run.failed' },
    cookie,
  )
  expect(added.status).toBe(200)
  const secret = /data-testid="signing-secret"[^>]*>(whsec_[^<]+)</.exec(await added.text())?.[1]
  expect(secret).toMatch(/^whsec_/)
  const [endpoint] = await listEndpoints(user.auth)
  expect(endpoint).toMatchObject({ url: `${receiver.url}/page`, events: ['run.failed'], description: 'ops' })
  const listed = await page()
  expect(listed).toContain(`${receiver.url}/page`)
  expect(listed).not.toContain(secret)

  // What the delivery job writes when it gives up on an endpoint, as the page shows it.
  await app.db
    .updateTable('webhook_endpoints')
    .set({
      status: 'disabled',
      disabled_at: new Date(),
      disabled_reason: '4 consecutive failed attempts; the last: the endpoint answered 500',
    })
    .where('id', '=', endpoint?.id as string)
    .execute()
  expect(await page()).toContain('4 consecutive failed attempts; the last: the endpoint answered 500')

  const rotated = await postForm(
    app.url,
    '/dashboard/webhooks',
    { intent: 'rotate', id: endpoint?.id as string },
    cookie,
  )
  const next = /data-testid="signing-secret"[^>]*>(whsec_[^<]+)</.exec(await rotated.text())?.[1]
  expect(next).toMatch(/^whsec_/)
  expect(next).not.toBe(secret)
  const deleted = await postForm(
    app.url,
    '/dashboard/webhooks',
    { intent: 'delete', id: endpoint?.id as string },
    cookie,
  )
  expect(deleted.status).toBe(200)
  expect(await listEndpoints(user.auth)).toEqual([])
  const again = await postForm(app.url, '/dashboard/webhooks', { intent: 'delete', id: 'not-an-id' }, cookie)
  expect(again.status).toBe(404)
})
