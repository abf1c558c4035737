// Property: whatever a client sends to any REST operation, the answer is never a 5xx; a refusal is
// an RFC 9457 problem whose status matches the response; and a refused request changes nothing.
// The operations, their parameters and body schemas come from the OpenAPI document the app serves,
// so a new route is fuzzed as soon as it is documented (test/openapi.test.ts fails if it is not).
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApiKey } from '#server/accounts/api-keys.ts'
import { buildOpenApiDocument } from '#server/http/api/openapi.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { fuzzRuns, hostileSegment, nastyString, valueFor } from '#test/support/hostile-input.ts'
import { postBrief } from '#test/support/runs.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

type Parameter = { name: string; in: string; schema?: Record<string, unknown>; $ref?: string }
type Operation = {
  method: string
  path: string
  parameters: Parameter[]
  body?: Record<string, unknown>
  public: boolean
}

const { numRuns: NUM_RUNS, timeout: FUZZ_TIMEOUT } = fuzzRuns(60, 2000)
const document = buildOpenApiDocument('test') as {
  paths: Record<string, Record<string, Record<string, unknown>>>
  components: { parameters: Record<string, Parameter> }
}

function parametersOf(spec: Record<string, unknown>): Parameter[] {
  return ((spec.parameters ?? []) as Parameter[]).map((parameter) =>
    parameter.$ref
      ? (document.components.parameters[parameter.$ref.split('/').at(-1) as string] as Parameter)
      : parameter,
  )
}

// Inbound webhooks (signed, not keyed) and MCP (JSON-RPC) have their own property files beside this
// one; the outbound webhooks' endpoints (/api/webhooks/endpoints, /secret) are keyed like the rest.
const INBOUND_WEBHOOKS = ['/api/webhooks/slack', '/api/webhooks/github']
const operations: Operation[] = Object.entries(document.paths)
  .filter(([path]) => !INBOUND_WEBHOOKS.includes(path) && !path.startsWith('/api/mcp'))
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, spec]) => ({
      method: method.toUpperCase(),
      path,
      parameters: parametersOf(spec),
      body: (spec.requestBody as { content?: Record<string, { schema: Record<string, unknown> }> } | undefined)
        ?.content?.['application/json']?.schema,
      public: Array.isArray(spec.security) && spec.security.length === 0,
    })),
  )

let app: TestApp
let owner: Awaited<ReturnType<typeof createTestAccount>>
const known: Record<string, string[]> = {
  runId: [],
  seriesId: [],
  prefix: [],
  addressId: [],
  id: ['pestle', 'swot'],
}

beforeAll(async () => {
  // A web-only process: runs that valid bodies start are written and queued, never run, so the
  // machine stays quiet and the database holds still between requests. Email is on (so its routes
  // are fuzzed past "email is off"); its mail is queued, never sent, as no worker runs.
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      RATE_LIMIT_RUNS_PER_HOUR: '1000000',
      RATE_LIMIT_DEMO_PER_DAY: '1000000',
      SMTP_URL: 'smtp://127.0.0.1:9',
    },
  })
  owner = await createTestAccount(app.db)
  const other = await createTestAccount(app.db)
  // A second key of the owner's, so a fuzzed revoke can succeed without locking the fuzzer out.
  const spare = await createApiKey(app.db, { accountId: owner.account.id, name: 'spare' })
  known.prefix?.push(spare.summary.prefix, other.prefix)
  for (const account of [owner, other]) {
    const run = await postBrief(app.fetch, account.auth, { topic: 'fuzzed topic', depth: 'quick' })
    const recurring = await postBrief(app.fetch, account.auth, { topic: 'fuzzed series', recurring: true })
    const series = await (await app.fetch(`/api/briefs/${recurring.body.runId}`, { headers: account.auth })).json()
    known.runId?.push(run.body.runId, recurring.body.runId)
    known.seriesId?.push(series.recurring.seriesId)
    const address = await app.fetch('/api/email/addresses', {
      method: 'POST',
      headers: { ...account.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ address: `fuzz-${account.account.id}@example.com` }),
    })
    known.addressId?.push((await address.json()).addressId)
  }
})
afterAll(() => app.stop())

function pathArbitrary(op: Operation): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
  const values = names.map((name) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...(known[name] ?? ['x'])) },
      { weight: 3, arbitrary: hostileSegment },
    ),
  )
  return fc.tuple(...values).map((segments) => {
    let path = op.path
    names.forEach((name, index) => {
      path = path.replace(`{${name}}`, segments[index] as string)
    })
    return path
  })
}

function queryArbitrary(op: Operation): fc.Arbitrary<string> {
  const fields = op.parameters.filter((parameter) => parameter.in === 'query')
  const pairs = fc.array(
    fc.oneof(
      ...fields.map((field) =>
        fc.tuple(
          fc.constant(field.name),
          valueFor((field.schema ?? {}) as never, document).map((value) =>
            typeof value === 'string' ? value : JSON.stringify(value),
          ),
        ),
      ),
      fc.tuple(nastyString, nastyString),
    ),
    { maxLength: 4 },
  )
  return fc.oneof(
    { weight: 4, arbitrary: pairs.map((entries) => new URLSearchParams(entries).toString()) },
    fc.constantFrom('a[b]=1', 'limit=1&limit=2', 'topic=%', 'topic[]=x', '%%%', 'cursor=../../'),
  )
}

function headersArbitrary(op: Operation): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${owner.key}`) },
    fc.constantFrom('', 'Bearer', 'Bearer sx_aaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'Basic Zm9vOmJhcg=='),
    nastyString.map((text) => `Bearer ${text.replace(/[^\x20-\x7e]/g, '')}`),
  )
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'a/b+json'),
  )
  const headerValue = fc.oneof(
    fc.stringMatching(/^[\x21-\x7e]{1,20}$/),
    fc.constantFrom('', ' ', '1', '999999999999999999', 'x'.repeat(300)),
  )
  return fc
    .record(
      {
        authorization,
        contentType,
        lastEventId: headerValue,
        idempotencyKey: headerValue,
      },
      { requiredKeys: ['authorization', 'contentType'] },
    )
    .map(({ authorization, contentType, lastEventId, idempotencyKey }) => {
      const headers: Record<string, string> = { 'Content-Type': contentType }
      if (authorization) headers.Authorization = authorization
      if (lastEventId !== undefined && op.path.endsWith('/events')) headers['Last-Event-ID'] = lastEventId
      if (idempotencyKey !== undefined && op.method === 'POST') headers['Idempotency-Key'] = idempotencyKey
      return headers
    })
}

function bodyArbitrary(op: Operation): fc.Arbitrary<string | undefined> {
  if (op.method === 'GET' || op.method === 'HEAD') return fc.constant(undefined)
  const raw = fc.constantFrom('', '{', 'null', '[]', '"x"', '{"topic":', '\u0000', 'x'.repeat(70_000))
  if (!op.body) return fc.oneof(fc.constant(undefined), raw)
  return fc.oneof(
    { weight: 6, arbitrary: valueFor(op.body as never, document).map((value) => JSON.stringify(value)) },
    raw,
  )
}

async function send(
  op: Operation,
  request: { path: string; query: string; headers: Record<string, string>; body?: string },
) {
  const controller = new AbortController()
  const response = await app.fetch(`${request.path}${request.query ? `?${request.query}` : ''}`, {
    method: op.method,
    headers: request.headers,
    body: request.body,
    signal: controller.signal,
  })
  // A stream of a run that never ends (nothing works the runs here): the headers say enough.
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    controller.abort()
    return { response, text: '' }
  }
  return { response, text: await response.text() }
}

for (const op of operations) {
  test(`${op.method} ${op.path}: never a 5xx; refusals are problems and change nothing`, {
    timeout: FUZZ_TIMEOUT,
  }, async () => {
    const requestArbitrary = fc.record({
      path: pathArbitrary(op),
      query: queryArbitrary(op),
      headers: headersArbitrary(op),
      body: bodyArbitrary(op),
    })
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (request) => {
        // An Idempotency-Key makes the answer to a refused brief part of the state, on purpose: a
        // retry with that key replays the refusal (docs/decisions/007).
        const ignoreTables = request.headers['Idempotency-Key'] !== undefined ? ['idempotency_keys'] : []
        const before = await snapshotState(app.db, { ignoreTables })
        const { response, text } = await send(op, request)
        const what = `${op.method} ${request.path}?${request.query} → ${response.status} ${text.slice(0, 300)}`
        expect(response.status, what).toBeLessThan(500)
        if (response.status >= 400) {
          expect(response.headers.get('content-type'), what).toMatch(/^application\/problem\+json/)
          const problem = JSON.parse(text)
          expect(problem, what).toMatchObject({ status: response.status, title: expect.any(String) })
          expect(typeof problem.type, what).toBe('string')
          expectSameState(await snapshotState(app.db, { ignoreTables }), before, what)
        }
      }),
      { numRuns: NUM_RUNS },
    )
  })
}

test('every documented REST operation but webhooks and MCP is fuzzed', () => {
  expect(operations.length).toBeGreaterThanOrEqual(15)
  expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(
    expect.arrayContaining([
      'POST /api/briefs',
      'PATCH /api/series/{seriesId}',
      'GET /api/memory/check',
      'POST /api/webhooks/endpoints',
      'DELETE /api/webhooks/endpoints/{endpointId}',
    ]),
  )
})
