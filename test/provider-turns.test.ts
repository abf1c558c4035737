// Provider rates shared by every process (issue 42, item 1): two processes (two connection pools) on
// one database count one rate, and a call over it waits for its turn rather than failing.
import type pg from 'pg'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { createPool } from '#db/database.ts'
import { createLimiter } from '#server/limits/limiter.ts'
import { createProviderTurns } from '#server/limits/provider-turns.ts'
import type { Turn } from '#server/providers/types.ts'
import { type ProviderNews, type ProviderWait, reportingWaits } from '#server/providers/waits.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

// What the two processes do is awaited with a budget no busy machine runs out of (vi.waitFor's own is
// one second): the verdict is what happens, not how soon.
const SETTLED = { timeout: 30_000, interval: 20 }

let database: TestDatabase
let pools: pg.Pool[]
beforeAll(async () => {
  database = await createTestDatabase()
  // The app's pools: a connection the database's drop ends while it closes is logged, not thrown
  // (pg-pool's end() resolves before its clients' connections have closed).
  pools = [0, 1].map(() => createPool(database.url, 4, testLogger()))
})
afterAll(async () => {
  for (const pool of pools) await pool.end()
  await database.drop()
})

test('two processes on one database admit a rate once between them, not once each', async () => {
  const clock = Date.UTC(2030, 0, 1, 12)
  const policy = { name: 'provider:shared', limit: 5, windowSeconds: 1, description: 'Five a second.' }
  const [one, two] = pools.map((pool) => createLimiter({ pool, policy, now: () => clock }))
  const allowed: boolean[] = []
  for (let call = 0; call < 10; call++)
    allowed.push((await (call % 2 === 0 ? one : two)?.check('all'))?.allowed ?? false)
  expect(allowed.filter(Boolean)).toHaveLength(5)
  expect(allowed.slice(5).some(Boolean)).toBe(false)
})

test('checks at the same moment from two processes, each in another slice of the window, admit the rate and no more', async () => {
  // Each check reads the clock a few milliseconds after the last: sixty of them fall in 17 slices of
  // one second. Counted in parallel, each in its own slice, they read the window one key at a time;
  // read side by side, each saw the window without the others and 22 of 20 went through.
  let clock = Date.UTC(2030, 0, 1, 12, 30)
  const policy = { name: 'provider:race', limit: 20, windowSeconds: 1, description: 'Twenty a second.', extraSlices: 2 }
  const [one, two] = pools.map((pool) => createLimiter({ pool, policy, now: () => (clock += 5) }))
  for (let round = 0; round < 3; round++) {
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? one : two)?.check(`round-${round}`)),
    )
    expect(decisions.filter((decision) => decision?.allowed)).toHaveLength(20)
  }
})

test('a call over the rate waits for its turn, and goes when the window has moved on', async () => {
  let clock = Date.UTC(2030, 0, 1, 13)
  const turnsOf = pools.map((pool) =>
    createProviderTurns({ pool, rates: { exa: { limit: 3, windowSeconds: 1 } }, now: () => clock }),
  )
  const [first, second] = turnsOf.map((turns) => turns('exa'))
  expect(turnsOf[0]?.('openai')).toBeUndefined() // no rate set: no turn to wait for
  const signal = AbortSignal.timeout(60_000)
  // A process counts its next turn while its call runs. Which process holds the third turn must not
  // depend on which count Postgres sees first: had the second process's two come before the first's
  // second, the first's next call would wait on a clock that does not move until the test moves it.
  await first?.take(signal)
  await vi.waitFor(async () => expect(await heldBy('exa')).toBe(2), SETTLED)
  for (const turn of [second, first]) await turn?.take(signal)

  let went = false
  const waiting = second?.take(signal).then(() => {
    went = true
  })
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(went).toBe(false) // the three of this second are spent, by both processes together

  // A provider's call is held a window and two sixtieths of it (decision 038).
  clock += 1100
  await waiting
  expect(went).toBe(true)
})

test('a run that ends while its call waits stops waiting at once', async () => {
  const clock = Date.UTC(2030, 0, 1, 14)
  const turns = createProviderTurns({
    pool: pools[0] as pg.Pool,
    rates: { exa: { limit: 1, windowSeconds: 60 } },
    now: () => clock,
  })
  const turn = turns('exa')
  await turn?.take(AbortSignal.timeout(60_000))
  const controller = new AbortController()
  const waiting = turn?.take(controller.signal)
  controller.abort(new Error('the run was cancelled'))
  await expect(waiting).rejects.toThrow('the run was cancelled')
})

/** A pool that counts the limiter's statements on it, on the pool or on a client it hands out. */
function countingPool(pool: pg.Pool, table = /\brate_limit_/): { pool: pg.Pool; statements: () => number } {
  let statements = 0
  const counting = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(inner, property, receiver) {
        const value = Reflect.get(inner, property, receiver)
        if (typeof value !== 'function') return value
        if (property === 'query') {
          return (text: unknown, ...rest: unknown[]) => {
            if (typeof text === 'string' && table.test(text)) statements += 1
            return value.call(inner, text, ...rest)
          }
        }
        if (property === 'connect') return async () => counting(await value.call(inner))
        return value.bind(inner)
      },
    })
  return { pool: counting(pool), statements: () => statements }
}

async function heldBy(provider: string): Promise<number> {
  const { rows } = await (pools[0] as pg.Pool).query<{ held: number }>(
    'select coalesce(sum(hits), 0)::int as held from rate_limit_slices where key = $1',
    [`provider:${provider}:all`],
  )
  return rows[0]?.held ?? 0
}

test('turns are counted a few at a time, and the next few while a call runs: not a statement per call', async () => {
  const clock = Date.UTC(2030, 0, 1, 15)
  const { pool, statements } = countingPool(pools[0] as pg.Pool)
  // 100 a minute: five turns a statement.
  const turn = createProviderTurns({ pool, rates: { model: { limit: 100, windowSeconds: 60 } }, now: () => clock })(
    'model',
  )
  const signal = AbortSignal.timeout(60_000)
  for (let call = 0; call < 10; call++) await turn?.take(signal)
  await vi.waitFor(async () => expect(await heldBy('model')).toBe(15), SETTLED)
  // The first batch, and two more each taken when the one before ran out (the last is for call 11).
  expect(statements()).toBe(3)
})

test("a process reads other processes' pauses at most once a second, before its batches as beside its calls", async () => {
  let clock = Date.UTC(2030, 0, 1, 15, 30)
  const { pool, statements } = countingPool(pools[0] as pg.Pool, /\bprovider_pauses\b/)
  // 100 a minute: five turns a statement, so ten calls take three batches.
  const turn = createProviderTurns({ pool, rates: { model: { limit: 100, windowSeconds: 60 } }, now: () => clock })(
    'model',
  )
  const signal = AbortSignal.timeout(60_000)
  for (let call = 0; call < 10; call++) await turn?.take(signal)
  expect(statements()).toBe(1)
  clock += 1000
  for (let call = 0; call < 10; call++) await turn?.take(signal)
  await vi.waitFor(() => expect(statements()).toBe(2), SETTLED)
})

test('turns a process took and did not use soon are given back to every process', async () => {
  let clock = Date.UTC(2030, 0, 1, 16)
  // 40 a minute: two turns a statement, usable for three seconds.
  const [mine, theirs] = pools.map((pool) =>
    createProviderTurns({ pool, rates: { feed: { limit: 40, windowSeconds: 60 } }, now: () => clock })('feed'),
  )
  const signal = AbortSignal.timeout(60_000)
  await mine?.take(signal)
  expect(await heldBy('feed')).toBe(2) // one used, one held for the next call
  clock += 4000
  await mine?.take(signal) // the held turn is stale: given back, and two fresh ones taken
  await vi.waitFor(async () => expect(await heldBy('feed')).toBe(3), SETTLED)
  // The other process gets the rest of the minute's 40. Had the stale turn not been given back, its
  // last call would wait for a minute of the fake clock, which never passes.
  for (let call = 0; call < 37; call++) await theirs?.take(signal)
  await vi.waitFor(async () => expect(await heldBy('feed')).toBe(40), SETTLED)
})

test("a provider's 429 in one process pauses it for the other, which waits and says so, then goes", async () => {
  let clock = Date.UTC(2030, 0, 1, 17)
  const [mine, theirs] = pools.map((pool) =>
    createProviderTurns({ pool, rates: { search: { limit: 100, windowSeconds: 1 } }, now: () => clock })('search'),
  )
  const signal = AbortSignal.timeout(60_000)
  await mine?.take(signal)
  await theirs?.take(signal)
  // The provider answered 429 with Retry-After: 30 to the first process; the other looks for pauses
  // once a second, beside its calls.
  await mine?.pause(30_000)
  clock += 1000
  // The other process's next turn waits, though it held turns and its rate has room, and the run is told.
  const waits: ProviderNews[] = []
  let went = false
  const waiting = reportingWaits(
    (wait) => waits.push(wait),
    async () => {
      for (let call = 0; call < 5; call++) await theirs?.take(signal)
      went = true
    },
  )
  await vi.waitFor(() => expect(waits.length).toBeGreaterThan(0), SETTLED)
  expect(went).toBe(false)
  expect(waits[0]).toMatchObject({ provider: 'search', why: 'shared_rate' })
  expect((waits[0] as ProviderWait | undefined)?.ms).toBeGreaterThan(25_000)
  clock += 31_000
  await waiting
  expect(went).toBe(true)
})

test('a batch asked for while a look for pauses is under way waits for that look: no call goes out into the pause it finds', async () => {
  const clock = Date.UTC(2030, 0, 1, 20)
  const rates = { news: { limit: 20, windowSeconds: 1 } }
  const mine = createProviderTurns({ pool: pools[0] as pg.Pool, rates, now: () => clock })('news') as Turn
  // The other process reads pauses slowly: its look answers well after its first batch's statement
  // would have.
  let looked: () => void = () => {}
  const lookDone = new Promise<void>((resolve) => {
    looked = resolve
  })
  const slow = new Proxy(pools[1] as pg.Pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver)
      return async (text: unknown, ...rest: unknown[]) => {
        const look = typeof text === 'string' && /^\s*select\b/.test(text) && text.includes('provider_pauses')
        if (look) await new Promise((resolve) => setTimeout(resolve, 1000))
        const answer = await (target.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest)
        if (look) looked()
        return answer
      }
    },
  })
  const theirs = createProviderTurns({ pool: slow, rates, now: () => clock })('news') as Turn
  await mine.pause(30_000)
  // The other process's first call: it looks for pauses beside the call (not awaited), and its first
  // batch must wait for that look rather than look again or go without it.
  const waits: ProviderNews[] = []
  let went = false
  const stop = new AbortController()
  const waiting = reportingWaits(
    (wait) => waits.push(wait),
    () => theirs.take(stop.signal),
  )
    .then(() => {
      went = true
    })
    .catch(() => undefined)
  await lookDone
  expect(went).toBe(false)
  await vi.waitFor(() => expect(waits.length).toBeGreaterThan(0), SETTLED)
  expect(waits[0]).toMatchObject({ provider: 'news', why: 'shared_rate' })
  expect(went).toBe(false)
  stop.abort()
  await waiting
})

test('a 429 pauses a provider a second at least, and no longer than its wait for a per-minute rate', async () => {
  let clock = Date.UTC(2030, 0, 1, 18)
  const turn = createProviderTurns({
    pool: pools[0] as pg.Pool,
    rates: { model: { limit: 1000, windowSeconds: 60 } },
    now: () => clock,
  })('model')
  const signal = AbortSignal.timeout(60_000)
  await turn?.take(signal)
  // exa-js reads no Retry-After: the call's first backoff is shorter than a second.
  await turn?.pause(200)
  let went = false
  const waiting = turn?.take(signal).then(() => {
    went = true
  })
  clock += 500
  await new Promise((resolve) => setTimeout(resolve, 1200))
  expect(went).toBe(false)
  // A second, not the minute of the rate's window.
  clock += 600
  await waiting
  expect(went).toBe(true)
})

test('a pause that cannot be read or written costs no call: the rate still holds, and this process waits its own', async () => {
  const clock = Date.UTC(2030, 0, 1, 19)
  const failing = new Proxy(pools[0] as pg.Pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver)
      return (text: unknown, ...rest: unknown[]) =>
        typeof text === 'string' && text.includes('provider_pauses')
          ? Promise.reject(new Error('relation "provider_pauses" is unreachable'))
          : (target.query as (...args: unknown[]) => unknown)(text, ...rest)
    },
  })
  const turn = createProviderTurns({
    pool: failing,
    rates: { feeds: { limit: 100, windowSeconds: 60 } },
    now: () => clock,
  })('feeds')
  const signal = AbortSignal.timeout(60_000)
  for (let call = 0; call < 3; call++) await turn?.take(signal)
  await turn?.pause(30_000) // logged, not thrown
  let went = false
  const stop = new AbortController()
  const waiting = turn
    ?.take(stop.signal)
    .then(() => {
      went = true
    })
    .catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(went).toBe(false)
  stop.abort()
  await waiting
})

test('two processes hold a concurrency limit between them: a call over it waits for one to end, in either process', async () => {
  const clock = Date.UTC(2030, 0, 1, 18)
  const [one, two] = pools.map(
    (pool) =>
      createProviderTurns({
        pool,
        rates: { llm: { limit: 10_000, windowSeconds: 60 } },
        concurrency: { llm: 2 },
        now: () => clock,
      })('llm') as Turn,
  )
  const signal = AbortSignal.timeout(60_000)
  let running = 0
  let peak = 0
  const call = async (turn: Turn, ms: number) => {
    const release = await turn.take(signal)
    running += 1
    peak = Math.max(peak, running)
    await new Promise((resolve) => setTimeout(resolve, ms))
    running -= 1
    release()
  }
  // Twelve calls from two processes, two at most at once whatever the machine's speed.
  await Promise.all(Array.from({ length: 12 }, (_, index) => call(index % 2 === 0 ? (one as Turn) : (two as Turn), 20)))
  expect(peak).toBe(2)
  // Each place was given back when its call ended (beside the next call, not before it).
  await vi.waitFor(async () => {
    const { rows } = await (pools[0] as pg.Pool).query<{ held: number }>(
      "select count(*)::int as held from provider_slots where provider = 'llm' and holder is not null",
    )
    expect(rows[0]?.held).toBe(0)
  }, SETTLED)
})

test('a call waiting for a place stops at once when its run ends, and the place of a process that died is taken when its lease ends', async () => {
  const [one, two] = pools.map(
    (pool) =>
      createProviderTurns({
        pool,
        rates: { solo: { limit: 10_000, windowSeconds: 60 } },
        concurrency: { solo: 1 },
        leaseMs: 1500,
      })('solo') as Turn,
  )
  const signal = AbortSignal.timeout(60_000)
  // One process takes the only place and never gives it back, as if it died mid-call.
  await one?.take(signal)
  const controller = new AbortController()
  const cancelled = two?.take(controller.signal)
  controller.abort(new Error('the run was cancelled'))
  await expect(cancelled).rejects.toThrow('the run was cancelled')
  // Its lease runs out (Postgres's clock), and the other process's call goes.
  const release = await two?.take(signal)
  const { rows } = await (pools[0] as pg.Pool).query<{ leased: boolean }>(
    "select expires_at > now() as leased from provider_slots where provider = 'solo' and holder is not null",
  )
  expect(rows.map((row) => row.leased)).toEqual([true])
  release?.()
})

test('callers waiting for a spent rate ask Postgres once between them until a turn may be free, not once each', async () => {
  const clock = Date.UTC(2030, 0, 1, 19)
  const { pool, statements } = countingPool(pools[0] as pg.Pool)
  const turn = createProviderTurns({ pool, rates: { busy: { limit: 1, windowSeconds: 60 } }, now: () => clock })('busy')
  const controller = new AbortController()
  await turn?.take(controller.signal)
  // Ten calls wait on a clock that does not move: the minute's one turn is spent.
  const waiting = Array.from({ length: 10 }, () => turn?.take(controller.signal).catch(() => undefined))
  await vi.waitFor(() => expect(statements()).toBeGreaterThanOrEqual(2), SETTLED)
  const asked = statements()
  // Each waiter wakes at least once a second (PAUSE_CHECK_MS) and asks again: of this process, not Postgres.
  await new Promise((resolve) => setTimeout(resolve, 2500))
  expect(statements()).toBe(asked)
  controller.abort(new Error('done'))
  await Promise.all(waiting)
})

test('turns whose count answered a slice late are given back and taken again, once: none goes out later than its window allows', async () => {
  let clock = Date.UTC(2030, 0, 1, 21)
  const { pool, statements } = countingPool(pools[0] as pg.Pool)
  // How long each of the next counts takes to answer, on the fake clock (then `always`).
  const lateness: number[] = []
  let always = 0
  const slow = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'connect') return Reflect.get(target, property, receiver)
      return async () => {
        const client = await target.connect()
        return new Proxy(client, {
          get(inner, key, innerReceiver) {
            if (key !== 'query') return Reflect.get(inner, key, innerReceiver)
            return async (text: unknown, ...rest: unknown[]) => {
              const answer = await (inner.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest)
              if (typeof text === 'string' && text.includes('rate_limit_take')) clock += lateness.shift() ?? always
              return answer
            }
          },
        })
      }
    },
  })
  // 100 a minute: five turns a count, each usable for a second (a sixtieth of the window).
  const turns = createProviderTurns({
    pool: slow,
    rates: { slow: { limit: 100, windowSeconds: 60 } },
    now: () => clock,
  })
  const signal = AbortSignal.timeout(60_000)

  // The first count answers 1.5 s after it was made: its five turns are given back, five fresh ones taken.
  lateness.push(1500, 0)
  await turns('slow')?.take(signal)
  await vi.waitFor(async () => expect(await heldBy('slow')).toBe(5), SETTLED)
  // A count, its refund, and a count again.
  await vi.waitFor(() => expect(statements()).toBe(3), SETTLED)

  // On a machine that slow every time, the second late answer in a row is used: calls still go.
  const again = createProviderTurns({
    pool: slow,
    rates: { slower: { limit: 100, windowSeconds: 60 } },
    now: () => clock,
  })('slower')
  always = 1500
  for (let call = 0; call < 10; call++) await again?.take(signal)
  await vi.waitFor(async () => expect(await heldBy('slower')).toBe(15), SETTLED)
}, 90_000) // past the waits' own budgets, so a failure says what it waited for
