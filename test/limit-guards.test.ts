// The run-start guard in front of a handler, on the real limiter store: per IP, demo key on top.
import type { AddressInfo } from 'node:net'
import express from 'express'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { AppServices } from '#app/context.ts'
import { createApiKeyVerifier } from '#server/auth/api-keys.ts'
import { loadConfig } from '#server/config.ts'
import { requireApiPrincipal } from '#server/http/api-auth.ts'
import { limitRunStarts } from '#server/http/limit-guards.ts'
import { createLimits } from '#server/limits/policies.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'

let database: TestDatabase
let pool: pg.Pool
let baseUrl: string
let server: ReturnType<express.Express['listen']>

beforeAll(async () => {
  database = await createTestDatabase()
  pool = new pg.Pool({ connectionString: database.url })
  const config = loadConfig({
    NODE_ENV: 'test',
    TRUST_PROXY: '1',
    RATE_LIMIT_RUNS_PER_HOUR: '5',
    RATE_LIMIT_DEMO_PER_DAY: '3',
  })
  const services = {
    config,
    apiKeys: createApiKeyVerifier(database.db),
    localAccountId: undefined,
    limits: createLimits({ pool, runsPerHour: 5, mcpPerHour: 120, demoPerDay: 3 }),
  } as unknown as AppServices
  const app = express()
  app.post('/start', requireApiPrincipal(services), limitRunStarts(services), (_req, res) => {
    res.status(202).json({ started: true })
  })
  server = app.listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.close()
  await pool.end()
  await database.drop()
})

function start(auth: Record<string, string>, ip: string) {
  return fetch(`${baseUrl}/start`, { method: 'POST', headers: { ...auth, 'X-Forwarded-For': ip } })
}

test('five runs per hour per IP: the sixth is 429 with Retry-After and the policy headers', async () => {
  const user = await createTestAccount(database.db)
  for (let i = 1; i <= 5; i++) {
    const response = await start(user.auth, '198.51.100.1')
    expect(response.status).toBe(202)
    expect(response.headers.get('ratelimit-policy')).toBe('"runs";q=5;w=3600')
    expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"runs";r=${5 - i};t=\\d+$`))
  }
  const refused = await start(user.auth, '198.51.100.1')
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await refused.json()).toMatchObject({
    limit: 'runs',
    quota: 5,
    detail: expect.stringMatching(/5 research runs per hour/),
  })
  // Another address has its own quota.
  expect((await start(user.auth, '198.51.100.2')).status).toBe(202)
})

test('the demo key: three runs per IP per day, counted on top of the runs limit', async () => {
  const demo = await createTestAccount(database.db, { keyKind: 'demo' })
  for (let i = 0; i < 3; i++) {
    const response = await start(demo.auth, '203.0.113.5')
    expect(response.status).toBe(202)
    expect(response.headers.get('ratelimit-policy')).toBe('"demo";q=3;w=86400, "runs";q=5;w=3600')
  }
  const refused = await start(demo.auth, '203.0.113.5')
  expect(refused.status).toBe(429)
  expect(await refused.json()).toMatchObject({
    limit: 'demo',
    detail: expect.stringMatching(/demo key 3 times per day/),
  })
})
