// Provider request rates shared by every process (issue 42, item 1): each provider's calls are
// counted in Postgres by the same sliding-window limiter as the user-facing limits, so N worker
// processes together stay under the rate the provider allows. A call waits for its turn; it is not
// refused, only cut short by the run's own signal (its deadline, or a cancel).
//
// The count is kept off the call's path: a process takes a few turns in one statement and hands
// them out itself, and takes the next few while the call that used the last one runs. A turn not
// used soon is given back, so a process holds little of the rate and counts each call close to when
// it is made (decision 038).
import type pg from 'pg'
import { createLimiter, type LimitDecision, type Limiter } from '#server/limits/limiter.ts'
import type { Logger } from '#server/logger.ts'
import { sleepUntil } from '#server/providers/sleep-until.ts'
import type { ProviderTurns, Turn } from '#server/providers/types.ts'

/** A provider's published rate: `limit` calls per `windowSeconds`. */
export type ProviderRate = { limit: number; windowSeconds: number }

/** Turns a process takes at once: a twentieth of the rate, at least one. */
const STOCK_SHARE = 1 / 20
/**
 * A turn taken ahead is used within this share of the window, or given back: a call counted before
 * it is made leaves the window that much sooner, so the rate a provider sees stays within this share
 * of its limit.
 */
const FRESH_SHARE = 1 / 20
/** Callers woken by one slice's expiry do not all ask again in the same millisecond. */
const JITTER_MS = 25

/** Turns counted together, and how many of them are not used yet. */
type Batch = { decision: LimitDecision; left: number; usableUntil: number }

export function createProviderTurns(options: {
  pool: pg.Pool
  log?: Logger
  rates: Record<string, ProviderRate | undefined>
  now?: () => number
}): ProviderTurns {
  const turns = new Map<string, Turn>()
  for (const [provider, rate] of Object.entries(options.rates)) {
    if (!rate) continue
    const limiter = createLimiter({
      pool: options.pool,
      ...(options.log ? { log: options.log } : {}),
      ...(options.now ? { now: options.now } : {}),
      policy: {
        name: `provider:${provider}`,
        limit: rate.limit,
        windowSeconds: rate.windowSeconds,
        description: `${provider} allows ${rate.limit} calls per ${rate.windowSeconds} s.`,
      },
    })
    turns.set(provider, providerTurn(limiter, rate, options.now ?? Date.now, options.log))
  }
  return (provider) => turns.get(provider)
}

function providerTurn(limiter: Limiter, rate: ProviderRate, now: () => number, log?: Logger): Turn {
  const stock = Math.max(1, Math.floor(rate.limit * STOCK_SHARE))
  const freshMs = rate.windowSeconds * 1000 * FRESH_SHARE
  let batches: Batch[] = []
  let taking: Promise<number> | undefined

  const giveBack = (batch: Batch) => {
    limiter.refund('all', batch.decision, batch.left).catch((error: unknown) => {
      log?.warn({ err: error }, 'giving back unused provider turns failed; they count until their window ends')
    })
  }
  const take = (): boolean => {
    const at = now()
    for (const batch of batches) if (batch.usableUntil <= at && batch.left > 0) giveBack(batch)
    batches = batches.filter((batch) => batch.usableUntil > at && batch.left > 0)
    const batch = batches[0]
    if (!batch) return false
    batch.left -= 1
    return true
  }
  /**
   * One attempt at more turns, shared by every caller in the process: 0 when some were counted,
   * otherwise how long until the oldest slice holding a call stops counting.
   */
  const takeMore = (): Promise<number> => {
    taking ??= (async () => {
      let cost = stock
      let decision = await limiter.check('all', cost)
      // Fewer than a stock fit: take what does.
      if (!decision.allowed && decision.remaining > 0) {
        cost = Math.min(stock, decision.remaining)
        decision = await limiter.check('all', cost)
      }
      if (!decision.allowed) return decision.retryAfterMs
      batches.push({ decision, left: cost, usableUntil: now() + freshMs })
      return 0
    })().finally(() => {
      taking = undefined
    })
    return taking
  }

  return async (signal) => {
    for (;;) {
      signal.throwIfAborted()
      if (take()) {
        // The next call's turns are counted while this one runs.
        if (batches.every((batch) => batch.left === 0)) takeMore().catch(() => {})
        return
      }
      const asked = Date.now()
      const wait = await untilAborted(takeMore(), signal)
      if (wait === 0) continue
      await sleepUntil(asked + wait + Math.random() * JITTER_MS, signal).catch((error) => {
        signal.throwIfAborted() // the run's own reason (its deadline, a cancel), not the timer's
        throw error
      })
    }
  }
}

/** The shared attempt, or the run's own reason when its signal aborts first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}
