// A start's reads (whether work can be queued, the topic's runs and memory) go while the limits are
// counted, not after: one fewer round trip before a run starts (issue 21). They write nothing, so a
// refused start leaves nothing behind; a visitor's account, made only once admitted, is read after.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec, parseKeyRing } from '#server/crypto/key-ring.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { LimitDecision, Limiter } from '#server/limits/limiter.ts'
import type { Limits } from '#server/limits/policies.ts'
import { type AdmissionDeps, startAdmittedRun } from '#server/runs/admission.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import { createTopicMemoryForRuns } from '#server/topics/service.ts'
import { createTopicIndex } from '#server/topics/topic-index.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

const brief = BriefSchema.parse({ topic: 'sodium-ion batteries', depth: 'quick' })

/** What happened, in order: the job system asked whether it takes work, the limit counted and answered. */
function setting(options: { allowed: boolean; blocked?: string }) {
  const order: string[] = []
  const decision = (allowed: boolean): LimitDecision => ({
    allowed,
    policy: { name: 'runs', limit: 5, windowSeconds: 3600, description: 'Five runs an hour.' },
    remaining: allowed ? 4 : 0,
    resetSeconds: 3600,
    retryAfterSeconds: allowed ? 0 : 60,
    retryAfterMs: allowed ? 0 : 60_000,
    checkedAt: new Date(),
  })
  const runs: Limiter = {
    async check() {
      order.push('counting')
      // As a limit stored in Postgres answers: a round trip later.
      await new Promise((resolve) => setTimeout(resolve, 50))
      order.push('counted')
      return decision(options.allowed)
    },
    async refund() {},
  }
  const jobs = {
    async blocked() {
      order.push('blocked?')
      return options.blocked
    },
    transaction: (db, fn) => db.transaction().execute(fn),
    send: async () => 'job',
  } as Partial<Jobs> as Jobs
  const ring = parseKeyRing(generateKeySpec('k1'))
  const deps: AdmissionDeps = {
    db: database.db,
    jobs,
    // No brief here recurs: a series made would be a mistake.
    series: {
      create: () => Promise.reject(new Error('no series is made here')),
    },
    runSeals: createRunSeals(ring),
    memory: createTopicMemoryForRuns({
      db: database.db,
      column: topicMemoryColumn(ring),
      topicIndex: createTopicIndex(randomBytes(32)),
      log: testLogger(),
      now: () => new Date(),
    }),
    deadlines: { quickSeconds: 300, deepSeconds: 900, queueSeconds: 3600 },
    limits: { runs } as Partial<Limits> as Limits,
    scheduleMinSeconds: 3600,
  }
  return { deps, order }
}

async function runsOf(accountId: string): Promise<number> {
  const { rows } = await sql<{
    n: number
  }>`select count(*)::int as n from runs where account_id = ${accountId}`.execute(database.db)
  return rows[0]?.n ?? 0
}

/** A member's start, by the one admission every surface uses (the limit stub ignores the address). */
function startFor(deps: AdmissionDeps, accountId: string | (() => Promise<string>)) {
  return startAdmittedRun(deps, { requester: { kind: 'member', address: '203.0.113.7' }, brief, accountId })
}

test("an account's start reads while its limit counts, and starts the run", async () => {
  const { account } = await createTestAccount(database.db)
  const { deps, order } = setting({ allowed: true })
  const started = await startFor(deps, account.id)
  expect(started.ok).toBe(true)
  expect(order).toEqual(['blocked?', 'counting', 'counted'])
  expect(await runsOf(account.id)).toBe(1)
})

test('a refused start has read, not written; a blocked job system refuses after admission as before', async () => {
  const { account } = await createTestAccount(database.db)
  const refused = setting({ allowed: false })
  const outcome = await startFor(refused.deps, account.id)
  expect(outcome.ok).toBe(false)
  expect(await runsOf(account.id)).toBe(0)

  const blocked = setting({ allowed: true, blocked: 'the job system is stopped' })
  expect(await startFor(blocked.deps, account.id)).toMatchObject({
    ok: false,
    refusal: { reason: 'not_queued', message: expect.stringMatching(/could not be queued/), retryAfterSeconds: 30 },
  })
  expect(await runsOf(account.id)).toBe(0)
})

test("a visitor's account is made once admitted, and its start reads after", async () => {
  const { account } = await createTestAccount(database.db)
  const { deps, order } = setting({ allowed: true })
  const started = await startFor(deps, async () => {
    order.push('account made')
    return account.id
  })
  expect(started.ok).toBe(true)
  expect(order).toEqual(['counting', 'counted', 'account made', 'blocked?'])
})
