// A sliding-window rate limiter stored in Postgres (`rate_limits`), built from rate-limiter-flexible
// counters. The library alone counts in fixed windows anchored at the first hit, which lets a client
// spend its quota at the end of one window and again at the start of the next.
import type pg from 'pg'
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible'
import { evaluateSlidingWindow, windowPosition } from '#server/limits/sliding-window.ts'
import type { Logger } from '#server/logger.ts'

export type LimitPolicy = {
  name: string
  limit: number
  windowSeconds: number
  /** A sentence for people, naming the limit: "You can start 5 research runs per hour from one address." */
  description: string
  /** The configuration variable that sets `limit`: named to the server's own operator, never to the public. */
  setting?: string
}

export type LimitDecision = {
  allowed: boolean
  policy: LimitPolicy
  remaining: number
  resetSeconds: number
  /** 0 when allowed; otherwise rounded up and at least 1. */
  retryAfterSeconds: number
  checkedAt: Date
}

export type Limiter = {
  check(subject: string): Promise<LimitDecision>
  /**
   * Gives back what an allowed check counted, when the work it admitted did not happen after all
   * (another limit refused, or the start failed): only work that really starts spends a quota.
   */
  refund(subject: string, decision: LimitDecision): Promise<void>
}

type CounterOptions = ConstructorParameters<typeof RateLimiterMemory>[0]
type Counter = RateLimiterMemory | RLWrapperTimeouts

const STORE_FAILURE_LOG_INTERVAL_MS = 60_000

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

  // A window's count must outlive the window after it, where it is the "previous" one. Expiry runs on
  // the real clock from a key's first hit, so two windows also cover an injected test clock.
  const counterOptions: CounterOptions = { keyPrefix: '', points: policy.limit, duration: 2 * policy.windowSeconds }
  let lastFailureLoggedAt = Number.NEGATIVE_INFINITY
  const counter: Counter = new RLWrapperTimeouts({
    limiter: new RateLimiterPostgres({
      ...counterOptions,
      storeClient: pool,
      tableName: 'rate_limits',
      tableCreated: true,
    }),
    timeoutMs: storeTimeoutMs,
    // Never fail open: when Postgres errors or times out, this process keeps counting in memory.
    insuranceLimiter: new StoreFallback(counterOptions, () => {
      if (Date.now() - lastFailureLoggedAt < STORE_FAILURE_LOG_INTERVAL_MS) return
      lastFailureLoggedAt = Date.now()
      log?.warn({ policy: policy.name }, 'rate limit store failed; counting in this process until it is back')
    }),
  })

  return {
    async check(subject) {
      const checkedAtMs = now()
      const position = windowPosition(checkedAtMs, policy.windowSeconds)
      const currentKey = `${policy.name}:${subject}:${position.index}`
      const previousKey = `${policy.name}:${subject}:${position.index - 1}`
      // Counting first and refunding a refusal keeps concurrent checks from all slipping under the
      // limit: each gets its own count from the atomic upsert. The cost is that a refusal in flight
      // can make a concurrent check see one request too many and be refused too (never admitted).
      const [countWithThis, previous] = await Promise.all([
        consume(counter, currentKey),
        counter.get(previousKey).then((res) => res?.consumedPoints ?? 0),
      ])
      const outcome = evaluateSlidingWindow(policy.limit, { previous, current: countWithThis - 1 }, position)
      if (!outcome.allowed) await counter.reward(currentKey)
      return {
        allowed: outcome.allowed,
        policy,
        remaining: outcome.remaining,
        resetSeconds: Math.ceil(outcome.resetMs / 1000),
        retryAfterSeconds: outcome.allowed ? 0 : Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)),
        checkedAt: new Date(checkedAtMs),
      }
    },
    async refund(subject, decision) {
      if (!decision.allowed) return // a refusal was never counted
      const { index } = windowPosition(decision.checkedAt.getTime(), policy.windowSeconds)
      await counter.reward(`${policy.name}:${subject}:${index}`)
    },
  }
}

/** The count including this request. The counter refuses past `limit`; we still want the number. */
async function consume(counter: Counter, key: string): Promise<number> {
  try {
    return (await counter.consume(key)).consumedPoints
  } catch (error) {
    if (error instanceof RateLimiterRes) return error.consumedPoints
    throw error
  }
}

/** The library calls its insurance limiter only when the store failed, so that is where we notice. */
class StoreFallback extends RateLimiterMemory {
  readonly #onUse: () => void

  constructor(options: CounterOptions, onUse: () => void) {
    super(options)
    this.#onUse = onUse
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.#onUse()
    return super.consume(...args)
  }

  override get(...args: Parameters<RateLimiterMemory['get']>) {
    this.#onUse()
    return super.get(...args)
  }

  override reward(...args: Parameters<RateLimiterMemory['reward']>) {
    this.#onUse()
    return super.reward(...args)
  }
}
