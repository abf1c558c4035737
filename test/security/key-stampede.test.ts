// API key verification under load: a thousand concurrent requests with one key the process has not
// seen yet share one argon2 verification (and none fails), and random secrets on a real prefix (the
// public demo key's) from one address cannot queue argon2 work without bound: past its budget that
// address is answered 429 at once, while other addresses are served. The argon2 check is the real
// one, wrapped to count its calls.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApiKey } from '#server/accounts/api-keys.ts'
import { KEY_CACHE_TTL_MS } from '#server/accounts/contract.ts'
import { verifySecret } from '#server/crypto/secrets.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { BURST_TEST_BUDGET_MS, startTestApp, type TestApp } from '#test/support/app.ts'

const DEMO_KEY = `sx_stmpd001_${'D'.repeat(32)}`
const FAILURES_PER_MINUTE = 30

let app: TestApp
let verifications = 0

beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      TRUST_PROXY: '1',
      DEMO_KEY,
      RATE_LIMIT_KEY_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
    },
    verifyKeySecret: async (hash, secret) => {
      verifications += 1
      return verifySecret(hash, secret)
    },
  })
})
afterAll(() => app.stop())

function get(path: string, key: string, address: string) {
  return app.fetch(path, { headers: { Authorization: `Bearer ${key}`, 'X-Forwarded-For': address } })
}

test('1,000 concurrent requests with one uncached key: every one answered 200, argon2 run once', {
  timeout: BURST_TEST_BUDGET_MS,
}, async () => {
  const user = await createTestAccount(app.db)
  verifications = 0
  const started = Date.now()
  const statuses = await Promise.all(
    Array.from({ length: 1000 }, async () => {
      const response = await get('/api/me', user.key, '198.51.100.10')
      await response.arrayBuffer()
      return response.status
    }),
  )
  const counts = statuses.reduce<Record<number, number>>((acc, status) => {
    acc[status] = (acc[status] ?? 0) + 1
    return acc
  }, {})
  expect(counts).toEqual({ 200: 1000 })
  // Once: concurrent checks share it, later ones hit the cache. (Were the machine so slow that the
  // burst outlasted the cache's lifetime, once per lifetime.)
  expect(verifications).toBeGreaterThanOrEqual(1)
  expect(verifications).toBeLessThanOrEqual(1 + Math.floor((Date.now() - started) / KEY_CACHE_TTL_MS))
})

test('guessing secrets on the demo prefix from one address: bounded argon2, 401 or 429 only, other addresses served', {
  timeout: BURST_TEST_BUDGET_MS,
}, async () => {
  const prefix = DEMO_KEY.slice(3, 11)
  const guess = () => `sx_${prefix}_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a').slice(0, 32)}`
  const user = await createTestAccount(app.db)
  verifications = 0
  const statuses = await Promise.all(
    Array.from({ length: 300 }, async () => {
      const response = await get('/api/briefs', guess(), '203.0.113.66')
      const body = await response.json()
      if (response.status === 429) expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(body.status).toBe(response.status)
      return response.status
    }),
  )
  expect(new Set(statuses)).toEqual(new Set([401, 429]))
  // Each guess is a different key, so nothing is cached: the budget is what bounds the work.
  expect(verifications).toBeLessThanOrEqual(FAILURES_PER_MINUTE)

  // Another address, with a real key (and the real demo key), is not held to the guesser's budget.
  expect((await get('/api/me', user.key, '198.51.100.20')).status).toBe(200)
  expect((await get('/api/me', DEMO_KEY, '198.51.100.21')).status).toBe(200)
})

test('many real keys behind one address are not held to the failure budget', {
  timeout: BURST_TEST_BUDGET_MS,
}, async () => {
  const user = await createTestAccount(app.db)
  const keys = await Promise.all(
    Array.from(
      { length: FAILURES_PER_MINUTE + 10 },
      async (_, i) => (await createApiKey(app.db, { accountId: user.account.id, name: `office ${i}` })).key,
    ),
  )
  for (const key of keys) expect((await get('/api/me', key, '198.51.100.30')).status).toBe(200)
})
