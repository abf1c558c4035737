// A sliding-window rate limiter stored in Postgres (`rate_limit_slices`): per limited key, the
// requests admitted in each sixtieth of the window (sliding-window.ts). One statement, one key at a
// time (`rate_limit_take`), reads the window and counts a request that fits, so every process shares
// the limit; a slow or failing store is replaced by the same count in this process's memory, never by
// no limit at all.
import { sql } from 'kysely'
import { LRUCache } from 'lru-cache'
import type pg from 'pg'
import type { Db } from '#db/database.ts'
import {
  evaluateSlidingWindow,
  type SlicePosition,
  sliceExpiresAtMs,
  slicePosition,
} from '#server/limits/sliding-window.ts'
import type { Logger } from '#server/logger.ts'

export type LimitPolicy = {
  name: string
  limit: number
  windowSeconds: number
  /** A sentence for people, naming the limit: "You can start 5 research runs per hour from one address." */
  description: string
  /** The configuration variable that sets `limit`: named to the server's own operator, never to the public. */
  setting?: string
  /**
   * Slices of the window a request is held for beyond the window's own (sliding-window.ts): a
   * client's limit lets a request go up to a sixtieth of the window early; a provider's rate, held
   * two slices longer, is kept in every window of the provider's own clock (decision 038).
   */
  extraSlices?: number
}

export type LimitDecision = {
  allowed: boolean
  policy: LimitPolicy
  remaining: number
  resetSeconds: number
  /** 0 when allowed; otherwise rounded up and at least 1. */
  retryAfterSeconds: number
  /** The same wait, to the millisecond: for callers that wait in-process rather than tell a client. */
  retryAfterMs: number
  checkedAt: Date
}

export type Limiter = {
  /** `cost`: how many requests this one counts for (a caller taking several turns at once). */
  check(subject: string, cost?: number): Promise<LimitDecision>
  /**
   * Gives back what an allowed check counted, when the work it admitted did not happen after all
   * (another limit refused, or the start failed): only work that really starts spends a quota.
   */
  refund(subject: string, decision: LimitDecision, cost?: number): Promise<void>
}

const STORE_FAILURE_LOG_INTERVAL_MS = 60_000
/** Keys the in-memory stand-in keeps while the store is down: the least recently limited go first. */
const MEMORY_KEYS = 100_000

/**
 * The window with this request in it (`counted`, whether or not it fit), the oldest slice holding
 * any, whether the request was counted, and where in the window it was.
 */
type Taken = { counted: number; oldest: number; taken: boolean; position: SlicePosition }

/** Where slices are counted: Postgres, or this process while Postgres fails. */
type SliceStore = {
  /**
   * Reads the key's window and counts `cost` requests in the slice of `at()` when they fit under
   * `limit`, as one step per key. `at` is asked when the store is ready to count (a connection
   * free), so time spent queueing does not put the request in an earlier slice than it is sent in.
   */
  take(key: string, at: () => SlicePosition, cost: number, limit: number): Promise<Taken>
  /** Takes `cost` requests back out of `slice` (a refund). */
  uncount(key: string, slice: number, cost: number): Promise<void>
}

/**
 * `subject` is who is limited (an IP address, an API key id; never a secret, it is stored as is).
 * Each check that is allowed counts against the subject's quota.
 */
export function createLimiter(options: {
  pool: pg.Pool
  policy: LimitPolicy
  now?: () => number
  /** A slow store must not hold up the request: past this, the check is counted in memory. */
  storeTimeoutMs?: number
  log?: Logger
}): Limiter {
  const { pool, policy, now = Date.now, storeTimeoutMs = 1000, log } = options
  if (!Number.isInteger(policy.limit) || policy.limit < 1) throw new Error(`${policy.name}: limit must be >= 1`)
  if (!Number.isInteger(policy.windowSeconds) || policy.windowSeconds < 1) {
    throw new Error(`${policy.name}: windowSeconds must be >= 1`)
  }
  const postgres = postgresSlices(pool)
  const memory = memorySlices()
  let lastFailureLoggedAt = Number.NEGATIVE_INFINITY
  // Never fail open: when Postgres errors or does not answer in time, this process counts in memory.
  const store = async <T>(use: (store: SliceStore) => Promise<T>): Promise<T> => {
    try {
      return await withTimeout(use(postgres), storeTimeoutMs)
    } catch {
      if (Date.now() - lastFailureLoggedAt >= STORE_FAILURE_LOG_INTERVAL_MS) {
        lastFailureLoggedAt = Date.now()
        log?.warn({ policy: policy.name }, 'rate limit store failed; counting in this process until it is back')
      }
      return use(memory)
    }
  }
  const keyOf = (subject: string) => `${policy.name}:${subject}`

  return {
    async check(subject, cost = 1) {
      if (!Number.isInteger(cost) || cost < 1) throw new Error(`${policy.name}: cost must be a whole number >= 1`)
      const at = () => slicePosition(now(), policy.windowSeconds, policy.extraSlices ?? 0)
      const { position, ...window } = await store((slices) => slices.take(keyOf(subject), at, cost, policy.limit))
      const outcome = evaluateSlidingWindow(policy.limit, window, position, cost)
      return {
        allowed: outcome.allowed,
        policy,
        remaining: outcome.remaining,
        resetSeconds: Math.ceil(outcome.resetMs / 1000),
        retryAfterSeconds: outcome.allowed ? 0 : Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)),
        retryAfterMs: outcome.retryAfterMs,
        checkedAt: new Date(position.nowMs),
      }
    },
    async refund(subject, decision, cost = 1) {
      if (!decision.allowed) return // a refusal was never counted
      const { slice } = slicePosition(decision.checkedAt.getTime(), policy.windowSeconds)
      await store((slices) => slices.uncount(keyOf(subject), slice, cost))
    },
  }
}

function postgresSlices(pool: pg.Pool): SliceStore {
  return {
    async take(key, at, cost, limit) {
      const client = await pool.connect()
      try {
        const position = at()
        const { slice, oldestCounted, windowMs, extraSlices } = position
        const { rows } = await client.query<{ counted: number; oldest: string; taken: boolean }>(
          'select counted, oldest::text, taken from rate_limit_take($1, $2, $3, $4, $5, $6)',
          [key, slice, oldestCounted, sliceExpiresAtMs(slice, windowMs, extraSlices), cost, limit],
        )
        const row = rows[0] as { counted: number; oldest: string; taken: boolean }
        return { counted: row.counted, oldest: Number(row.oldest), taken: row.taken, position }
      } finally {
        client.release()
      }
    },
    async uncount(key, slice, cost) {
      await pool.query(
        'update rate_limit_slices set hits = greatest(0, hits - $3) where key = $1 and slice = $2 and hits > 0',
        [key, slice, cost],
      )
    },
  }
}

function memorySlices(): SliceStore {
  const keys = new LRUCache<string, Map<number, number>>({ max: MEMORY_KEYS })
  return {
    async take(key, at, cost, limit) {
      const position = at()
      const { slice, oldestCounted } = position
      const slices = keys.get(key) ?? new Map<number, number>()
      keys.set(key, slices)
      for (const counted of slices.keys()) if (counted < oldestCounted) slices.delete(counted)
      let held = 0
      let oldest = Number.POSITIVE_INFINITY
      for (const [each, hits] of slices) {
        if (hits === 0) continue
        held += hits
        oldest = Math.min(oldest, each)
      }
      const taken = held + cost <= limit
      if (taken) {
        slices.set(slice, (slices.get(slice) ?? 0) + cost)
        oldest = Math.min(oldest, slice)
      }
      return { counted: held + cost, oldest: Number.isFinite(oldest) ? oldest : slice, taken, position }
    },
    async uncount(key, slice, cost) {
      const slices = keys.get(key)
      const hits = slices?.get(slice) ?? 0
      if (slices && hits > 0) slices.set(slice, Math.max(0, hits - cost))
    },
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`rate limit store did not answer in ${ms} ms`)), ms)
  })
  // A late answer is dropped: the check was counted in memory instead (the store's count errs high).
  work.catch(() => {})
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/** Drops the slices that stopped counting: of keys never limited again, which no check would drop. */
export async function purgeExpiredSlices(db: Db): Promise<number> {
  const { numAffectedRows } = await sql`delete from rate_limit_slices where expires_at < now()`.execute(db)
  return Number(numAffectedRows ?? 0)
}
