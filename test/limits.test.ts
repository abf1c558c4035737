import type { AddressInfo } from 'node:net'
import net from 'node:net'
import express from 'express'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPool } from '#db/database.ts'
import { loadConfig } from '#server/config.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/http/rate-limit.ts'
import { createLimiter, type LimitDecision, type LimitPolicy, purgeExpiredSlices } from '#server/limits/limiter.ts'
import { createLimits } from '#server/limits/policies.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { capturingLogger, testLogger } from '#test/support/logger.ts'

let database: TestDatabase
let pool: pg.Pool
beforeAll(async () => {
  database = await createTestDatabase()
  // The app's pool: a connection the database's drop ends while it closes is logged, not thrown.
  pool = createPool(database.url, 4, testLogger())
})
afterAll(async () => {
  await pool.end()
  await database.drop()
})

/** The limits as configured, with the defaults unless overridden. */
function limitSettings(env: Record<string, string> = {}) {
  return loadConfig({ NODE_ENV: 'test', ...env })
}

function policy(name: string, limit: number, windowSeconds = 3600): LimitPolicy {
  return { name, limit, windowSeconds, description: `You can do this ${limit} times.` }
}

async function checkTimes(limiter: { check(subject: string): Promise<LimitDecision> }, subject: string, times: number) {
  const decisions = []
  for (let i = 0; i < times; i++) decisions.push(await limiter.check(subject))
  return decisions
}

/** A port with nothing listening: connecting is refused at once. */
async function deadPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

test('exactly `limit` checks pass, the next is refused and does not count', async () => {
  const limiter = createLimiter({ pool, policy: policy('exact', 3) })

  const decisions = await checkTimes(limiter, '198.51.100.1', 5)

  expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
    [false, 0],
  ])
  expect(decisions[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
  const { rows } = await pool.query("select key, hits from rate_limit_slices where key = 'exact:198.51.100.1'")
  expect(rows).toEqual([{ key: 'exact:198.51.100.1', hits: 3 }])
})

test('subjects are counted separately', async () => {
  const limiter = createLimiter({ pool, policy: policy('separate', 2) })

  await checkTimes(limiter, 'key-a', 2)

  expect((await limiter.check('key-a')).allowed).toBe(false)
  expect((await limiter.check('key-b')).allowed).toBe(true)
})

test('checks at the end of one window still count at the start of the next, until a window has passed', async () => {
  let clock = Date.UTC(2030, 0, 1, 10, 59, 59)
  const limiter = createLimiter({ pool, policy: policy('boundary', 5), now: () => clock })

  expect((await checkTimes(limiter, 'client', 5)).every((decision) => decision.allowed)).toBe(true)

  // A fixed window anchored at 11:00 would allow 5 more here. The 10:59 slice counts until 11:59.
  clock = Date.UTC(2030, 0, 1, 11, 0, 1)
  const refused = await limiter.check('client')
  expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 3539, resetSeconds: 3539 })
  clock = Date.UTC(2030, 0, 1, 11, 58, 59)
  expect((await limiter.check('client')).allowed).toBe(false)

  // From 11:59 the five are gone: five more fit, not six.
  clock = Date.UTC(2030, 0, 1, 11, 59)
  expect((await checkTimes(limiter, 'client', 6)).map((decision) => decision.allowed)).toEqual([
    true,
    true,
    true,
    true,
    true,
    false,
  ])
})

test("the RateLimit header's wait never exceeds the window, from the first request on", async () => {
  // Issue 41, item 10: the first run after boot was told t=6724 on a window of 3600.
  for (const minute of [0, 1, 30, 59]) {
    let clock = Date.UTC(2030, 0, 2, 10, minute, 59, 999)
    const limiter = createLimiter({ pool, policy: policy(`header-${minute}`, 100), now: () => clock })
    const first = await limiter.check('client')
    expect(first).toMatchObject({ allowed: true, remaining: 99 })
    expect(first.resetSeconds).toBeGreaterThan(0)
    expect(first.resetSeconds).toBeLessThanOrEqual(3600)
    clock += 3_599_000
    const later = await limiter.check('client')
    expect(later.resetSeconds).toBeLessThanOrEqual(3600)
  }
})

test('a refused request gets 429 with RateLimit headers, Retry-After and a problem body', async () => {
  const limits = createLimits({ pool, settings: limitSettings({ RATE_LIMIT_RUNS_PER_HOUR: '2' }) })
  const app = express()
  app.post('/runs', async (_req, res) => {
    const decision = await limits.runs.check('203.0.113.9')
    if (!decision.allowed) return sendRateLimited(res, decision)
    setRateLimitHeaders(res, decision)
    res.status(202).json({ started: true })
  })
  const server = app.listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/runs`

  try {
    const first = await fetch(url, { method: 'POST' })
    expect(first.status).toBe(202)
    expect(first.headers.get('ratelimit-policy')).toBe('"runs";q=2;w=3600')
    expect(first.headers.get('ratelimit')).toMatch(/^"runs";r=1;t=\d+$/)

    await fetch(url, { method: 'POST' })
    const refused = await fetch(url, { method: 'POST' })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('content-type')).toContain('application/problem+json')
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(refused.headers.get('ratelimit')).toBe(`"runs";r=0;t=${retryAfter}`)
    const body = await refused.json()
    expect(body).toEqual({
      status: 429,
      title: 'Too Many Requests',
      type: 'https://sextant.dev/problems/rate-limited',
      detail: expect.stringMatching(
        /^You can start 2 research runs per hour from one address\. Try again in \d+ (seconds?|minutes?|hours?)\.$/,
      ),
      limit: 'runs',
      quota: 2,
      windowSeconds: 3600,
      retryAfterSeconds: retryAfter,
      resetsAt: expect.any(String),
    })
    const resetsIn = Date.parse(body.resetsAt) - Date.now()
    expect(resetsIn).toBeGreaterThan((retryAfter - 5) * 1000)
    expect(resetsIn).toBeLessThanOrEqual(retryAfter * 1000)
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
})

test('with the store down, limits keep holding in memory and the outage is logged', async () => {
  const deadPool = new pg.Pool({ host: '127.0.0.1', port: await deadPort(), connectionTimeoutMillis: 200 })
  const { log, lines } = capturingLogger()
  const limiter = createLimiter({ pool: deadPool, policy: policy('dead-store', 3), log })

  try {
    const decisions = await checkTimes(limiter, 'client', 4)

    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false])
    expect(decisions[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(lines.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ policy: 'dead-store', msg: expect.stringContaining('rate limit store failed') }),
    ])
  } finally {
    await deadPool.end()
  }
})

test('a store that never answers delays a check by the store timeout, not longer', async () => {
  const sockets = new Set<net.Socket>()
  const silent = net.createServer((socket) => sockets.add(socket))
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const hangingPool = new pg.Pool({ host: '127.0.0.1', port: (silent.address() as AddressInfo).port })
  hangingPool.on('error', () => {})
  const limiter = createLimiter({ pool: hangingPool, policy: policy('hanging-store', 1), storeTimeoutMs: 100 })

  try {
    const started = performance.now()
    const decisions = await checkTimes(limiter, 'client', 2)

    expect(performance.now() - started).toBeLessThan(2000)
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, false])
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
    await hangingPool.end().catch(() => {})
  }
})

test('each limit of spec section 8, at its default, refuses exactly the request past its quota', async () => {
  const limits = createLimits({ pool, settings: limitSettings() })
  for (const [limiter, quota] of [
    [limits.runs, 5],
    [limits.mcp, 120],
    [limits.demo, 3],
  ] as const) {
    const decisions = await checkTimes(limiter, 'spec-defaults', quota + 1)
    expect(decisions.slice(0, quota).every((decision) => decision.allowed)).toBe(true)
    expect(decisions[quota]).toMatchObject({ allowed: false, remaining: 0, policy: { limit: quota } })
  }
})

test('a refund gives back what an allowed check counted, in the window it was counted in', async () => {
  const limiter = createLimiter({ pool, policy: policy('refunds', 2) })
  const first = await limiter.check('client')
  const second = await limiter.check('client')
  expect((await limiter.check('client')).allowed).toBe(false)
  await limiter.refund('client', second)
  const third = await limiter.check('client')
  expect(third).toMatchObject({ allowed: true, remaining: 0 })
  // Refunding a refusal gives nothing: it was never counted.
  const refused = await limiter.check('client')
  await limiter.refund('client', refused)
  expect((await limiter.check('client')).allowed).toBe(false)
  expect(first.allowed).toBe(true)
})

test('a check may count several requests at once, and a refusal says how many would still fit', async () => {
  const limiter = createLimiter({ pool, policy: policy('several', 5) })
  const three = await limiter.check('client', 3)
  expect(three).toMatchObject({ allowed: true, remaining: 2 })
  expect(await limiter.check('client', 3)).toMatchObject({ allowed: false, remaining: 2 })
  expect(await limiter.check('client', 2)).toMatchObject({ allowed: true, remaining: 0 })
  await limiter.refund('client', three, 3)
  expect(await limiter.check('client', 3)).toMatchObject({ allowed: true, remaining: 0 })
  await expect(limiter.check('client', 0)).rejects.toThrow(/cost/)
})

test('the daily purge drops the slices that stopped counting, and only those', async () => {
  let clock = Date.UTC(2020, 0, 1, 12)
  const limiter = createLimiter({ pool, policy: policy('purged', 3), now: () => clock })
  await limiter.check('long-gone')
  clock = Date.now()
  await limiter.check('still-counting')

  await purgeExpiredSlices(database.db)

  const { rows } = await pool.query("select key from rate_limit_slices where key like 'purged:%' order by key")
  expect(rows).toEqual([{ key: 'purged:still-counting' }])
})
