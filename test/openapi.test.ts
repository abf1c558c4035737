// The OpenAPI document against the app it describes: public, complete, and true to the routes and schemas.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import type { Router } from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { apiRouter } from '#server/http/api/router.ts'
import { projectRoot } from '#server/http/app-build.ts'
import type { DatabaseLiveness } from '#server/http/database-liveness.ts'
import { feedRoutes } from '#server/http/feeds.ts'
import { healthRoutes } from '#server/http/health.ts'
import type { WebServices } from '#server/services.ts'
import { ClientBriefSchema } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

type Operation = { method: string; path: string; spec: unknown }

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

let app: TestApp
let document: unknown
beforeAll(async () => {
  app = await startTestApp({ env: { SLACK_SIGNING_SECRET: 'slack-secret', GITHUB_WEBHOOK_SECRET: 'github-secret' } })
  document = await (await app.fetch('/api/openapi.json')).json()
})
afterAll(() => app.stop())

/** The value at a path of keys in parsed JSON; undefined when a step is missing. */
function at(node: unknown, ...keys: string[]): unknown {
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

function entries(node: unknown): Array<[string, unknown]> {
  return typeof node === 'object' && node !== null ? Object.entries(node) : []
}

/** Follows a local $ref (`#/a/b`, RFC 6901 escapes); undefined when it points nowhere. */
function resolve(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  return at(
    document,
    ...ref
      .slice(2)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~')),
  )
}

/** The node itself, or what its $ref points to. */
function deref(node: unknown): unknown {
  const ref = at(node, '$ref')
  return typeof ref === 'string' ? resolve(ref) : node
}

function operations(): Operation[] {
  return entries(at(document, 'paths')).flatMap(([pathName, item]) =>
    entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, spec]) => ({ method: method.toUpperCase(), path: pathName, spec })),
  )
}

/** How an operation is authenticated: the API key (the default), nothing, or a webhook signature. */
function authOf(op: Operation): 'bearer' | 'public' | 'signature' {
  const security = at(op.spec, 'security')
  if (security === undefined) return 'bearer'
  if (Array.isArray(security) && security.length === 0) return 'public'
  const schemes = (security as Array<Record<string, unknown>>).flatMap((requirement) => Object.keys(requirement))
  for (const scheme of schemes) {
    expect(at(document, 'components', 'securitySchemes', scheme, 'name'), scheme).toMatch(/Signature/)
  }
  return 'signature'
}

function named(ops: Operation[]): string[] {
  return ops.map((op) => `${op.method} ${op.path}`).sort()
}

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn)
  if (typeof node !== 'object' || node === null) return []
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [value] : refsIn(value),
  )
}

/** Every METHOD /path the router answers, from its route layers; `.all()` (the 405s) is not a method. */
function servedRoutes(router: Router, prefix: string): string[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined
    if (route) {
      return (
        Object.keys(route.methods)
          .filter((method) => method !== '_all')
          // A router's own root ('/') is the path it is mounted on.
          .map(
            (method) =>
              `${method.toUpperCase()} ${prefix}${route.path === '/' ? '' : route.path.replace(/:(\w+)/g, '{$1}')}`,
          )
      )
    }
    const mounted = layer.handle as unknown as Partial<Router>
    const mountPath = (layer as unknown as { rawPath: string }).rawPath
    return mounted.stack ? servedRoutes(mounted as Router, mountPath === '/' ? prefix : prefix + mountPath) : []
  })
}

test('the document is public, OpenAPI 3.1.0, and carries the package version', async () => {
  const response = await app.fetch('/api/openapi.json')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const { version } = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8'))
  expect(at(document, 'openapi')).toBe('3.1.0')
  expect(at(document, 'info', 'version')).toBe(version)
  expect(at(document, 'security')).toEqual([{ bearerAuth: [] }])
  expect(at(document, 'components', 'securitySchemes', 'bearerAuth')).toMatchObject({ type: 'http', scheme: 'bearer' })
})

test('the document is valid OpenAPI 3.1 by the specification’s own schema', async () => {
  const served: Record<string, unknown> = await (await app.fetch('/api/openapi.json')).json()
  const result = await new Validator().validate(served)
  expect(result.errors ?? []).toEqual([])
  expect(result.valid).toBe(true)
})

test('it documents every endpoint of the API and the health probes', () => {
  expect(named(operations())).toEqual(
    [
      'GET /api/me',
      'GET /api/keys',
      'POST /api/keys',
      'DELETE /api/keys/{prefix}',
      'GET /api/memory/check',
      'GET /api/briefs',
      'POST /api/briefs',
      'GET /api/briefs/{runId}',
      'DELETE /api/briefs/{runId}',
      'GET /api/briefs/{runId}/events',
      'GET /api/series',
      'GET /api/series/{seriesId}',
      'PATCH /api/series/{seriesId}',
      'DELETE /api/series/{seriesId}',
      'POST /api/series/{seriesId}/run',
      'GET /api/email/addresses',
      'POST /api/email/addresses',
      'DELETE /api/email/addresses/{addressId}',
      'GET /api/feeds',
      'POST /api/feeds',
      'DELETE /api/feeds/{feedId}',
      'GET /feeds/{token}.atom',
      'GET /api/frameworks',
      'GET /api/frameworks/{id}',
      'POST /api/mcp',
      'GET /api/mcp/sse',
      'POST /api/mcp/messages',
      'GET /api/openapi.json',
      'POST /api/webhooks/slack',
      'POST /api/webhooks/github',
      'GET /api/webhooks/endpoints',
      'POST /api/webhooks/endpoints',
      'DELETE /api/webhooks/endpoints/{endpointId}',
      'POST /api/webhooks/endpoints/{endpointId}/rotate',
      'GET /api/webhooks/secret',
      'POST /api/webhooks/secret/rotate',
      'GET /healthz',
      'GET /readyz',
    ].sort(),
  )
})

test('the POST /api/briefs body is ClientBriefSchema: topic required, the same enums and defaults', () => {
  const body = at(document, 'paths', '/api/briefs', 'post', 'requestBody', 'content', 'application/json', 'schema')
  const schema = deref(body)
  const requiredFields = Object.entries(ClientBriefSchema.shape)
    .filter(([, field]) => !field.isOptional())
    .map(([name]) => name)
  expect(requiredFields).toContain('topic')
  expect(at(schema, 'required')).toEqual(requiredFields)
  expect(at(schema, 'additionalProperties')).toBe(false)
  const defaults = ClientBriefSchema.parse({ topic: 'anything' })
  for (const field of ['depth', 'timeframe', 'reportStyle', 'source'] as const) {
    expect(at(schema, 'properties', field, 'enum'), field).toEqual(ClientBriefSchema.shape[field].unwrap().options)
    expect(at(schema, 'properties', field, 'default'), field).toBe(defaults[field])
  }
})

test("the brief's budgets are documented with their ranges, in the body and in the run a GET returns", () => {
  const body = deref(
    at(document, 'paths', '/api/briefs', 'post', 'requestBody', 'content', 'application/json', 'schema'),
  )
  const stored = at(document, 'components', 'schemas', 'Brief')
  for (const schema of [body, stored]) {
    expect(at(schema, 'properties', 'maxTokens')).toMatchObject({
      type: 'integer',
      minimum: 1_000,
      maximum: 10_000_000,
      description: expect.stringContaining('stops spending'),
    })
    expect(at(schema, 'properties', 'maxCostDollars')).toMatchObject({
      type: 'number',
      minimum: 0.01,
      maximum: 1_000,
      description: expect.stringContaining('dollars'),
    })
    // Whole cents are checked by the server: multipleOf 0.01 would make JSON Schema validators refuse 0.29.
    expect(at(schema, 'properties', 'maxCostDollars')).not.toHaveProperty('multipleOf')
    expect(at(schema, 'required')).not.toContain('maxTokens')
    expect(at(schema, 'required')).not.toContain('maxCostDollars')
  }
})

test('every $ref in the document resolves', () => {
  const refs = refsIn(document)
  expect(refs.length).toBeGreaterThan(20)
  expect(refs.filter((ref) => resolve(ref) === undefined)).toEqual([])
})

test('errors are the Problem schema as application/problem+json; 401s say WWW-Authenticate', () => {
  for (const op of operations()) {
    const label = `${op.method} ${op.path}`
    for (const [status, answer] of entries(at(op.spec, 'responses'))) {
      if (Number(status) < 400 || Number(status) >= 500) continue
      const response = deref(answer)
      // The MCP endpoint answers protocol errors as JSON-RPC errors, as the MCP spec requires; they say so.
      if (at(response, 'x-jsonrpc-error') === true) continue
      const schemaRef = at(response, 'content', 'application/problem+json', 'schema', '$ref')
      expect(schemaRef, `${label} ${status}`).toMatch(/^#\/components\/schemas\/(RateLimit)?Problem$/)
      if (status === '401' && authOf(op) === 'bearer') {
        expect(at(response, 'headers', 'WWW-Authenticate'), label).toBeDefined()
      }
    }
    expect(at(op.spec, 'responses', '401') !== undefined, label).toBe(authOf(op) !== 'public')
  }
  const startRun = at(document, 'paths', '/api/briefs', 'post', 'responses')
  expect(Object.keys(startRun ?? {})).toEqual(expect.arrayContaining(['202', '400', '409', '413', '415', '422', '429']))
  expect(at(deref(at(startRun, '429')), 'headers', 'Retry-After')).toBeDefined()
  expect(at(startRun, '202', 'headers', 'RateLimit')).toBeDefined()
})

test('every route the app serves is documented, and nothing else', () => {
  // Building the routers touches no service; only their route tables are read.
  const services = {} as WebServices
  const served = [
    ...servedRoutes(apiRouter(services), '/api'),
    ...servedRoutes(feedRoutes(services), ''),
    ...servedRoutes(healthRoutes({ health: services.health, liveness: {} as DatabaseLiveness, version: 'test' }), ''),
  ]
  expect(served.sort()).toEqual(named(operations()))
})

test('each documented operation reaches its route: public ones answer without a key, webhooks want a signature, the rest a key', async () => {
  const user = await createTestAccount(app.db)
  const params: Record<string, string> = { prefix: 'nosuchky', runId: randomUUID(), id: 'pestle' }
  for (const op of operations()) {
    const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? name)
    const init = (headers: Record<string, string>): RequestInit =>
      at(op.spec, 'requestBody')
        ? { method: op.method, headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }
        : { method: op.method, headers }
    const label = `${op.method} ${op.path}`

    const anonymous = await app.fetch(url, init({}))
    if (authOf(op) === 'bearer') {
      expect(anonymous.status, label).toBe(401)
      expect(anonymous.headers.get('www-authenticate'), label).toMatch(/^Bearer/)
    } else if (authOf(op) === 'signature') {
      expect(anonymous.status, label).toBe(401)
      expect((await anonymous.clone().json()).detail, label).toMatch(/not signed/)
    } else if (op.path === '/feeds/{token}.atom') {
      // A feed's token is its key: no login, and a token that is no feed's is a 404.
      expect(anonymous.status, label).toBe(404)
    } else {
      expect(anonymous.status, label).toBe(200)
    }
    await anonymous.body?.cancel()

    // With a key, an unknown endpoint is a 404 "no API endpoint" and a wrong method a 405.
    const known = await app.fetch(url, init(user.auth))
    // An event stream stays open: its status and headers are the answer, not its (endless) body.
    const streaming = known.headers.get('content-type')?.startsWith('text/event-stream')
    const text = streaming ? '' : await known.text()
    if (streaming) await known.body?.cancel()
    expect(known.status, label).not.toBe(405)
    expect(text, label).not.toMatch(/There is no API endpoint/)
    expect(Object.keys(at(op.spec, 'responses') ?? {}), label).toContain(String(known.status))
  }
})
