// Provider request rates shared by every process (issue 42, item 1): each provider's calls are
// counted in Postgres by the same sliding-window limiter as the user-facing limits, so N worker
// processes together stay under the rate the provider allows. A call waits for its turn; it is not
// refused, only cut short by the run's own signal (its deadline, or a cancel).
//
// The count is kept off the call's path: a process takes a few turns in one statement and hands
// them out itself, and takes the next few while the call that used the last one runs. A turn not
// used soon is given back, so a process holds little of the rate and counts each call close to when
// it is made (decision 038).
//
// A provider's 429 pauses it for every process: the pause is kept in `provider_pauses`, read before
// each batch of turns (and beside the calls at most once a second), and a process that got the 429
// gives back the turns it holds. A provider may also limit calls at once (`concurrency`): each call
// then holds a place in `provider_slots` while it runs (provider-slots.ts, decision 041).
import type pg from 'pg'
import { createLimiter, type LimitDecision, type Limiter } from '#server/limits/limiter.ts'
import { createProviderSlots, type ProviderSlots } from '#server/limits/provider-slots.ts'
import { SLICES } from '#server/limits/sliding-window.ts'
import type { Logger } from '#server/logger.ts'
import { sleepUntil } from '#server/providers/sleep-until.ts'
import type { ProviderTurns, Turn } from '#server/providers/types.ts'
import { reportWait } from '#server/providers/waits.ts'

/** A provider's published rate: `limit` calls per `windowSeconds`. */
export type ProviderRate = { limit: number; windowSeconds: number }

/** Turns a process takes at once: a twentieth of the rate, at least one. */
const STOCK_SHARE = 1 / 20
/**
 * A turn taken ahead is used within one slice of the window (a sixtieth), or given back; each call
 * is held two slices beyond the window: one for the slice it was counted in, one for how early it
 * may have been counted. So no window of the provider's own clock holds more than the rate.
 */
const FRESH_SHARE = 1 / SLICES
const EXTRA_SLICES = 2
/** Callers woken by one slice's expiry do not all ask again in the same millisecond. */
const JITTER_MS = 25
/** The shortest pause a 429 sets. */
const MIN_PAUSE_MS = 1000
/** A wait this long is worth telling the run about ("waiting for exa's rate limit"). */
const REPORTED_WAIT_MS = 1000
/**
 * How often a process looks for a pause another process recorded, beside its calls (not before
 * them), and how long a waiting call sleeps before it asks again.
 */
const PAUSE_CHECK_MS = 1000

/** Turns counted together, and how many of them are not used yet. */
type Batch = { decision: LimitDecision; left: number; usableUntil: number }

/**
 * `concurrency`: calls at once a provider with a rate allows, every process together (unset: no
 * limit); `leaseMs`: how long one call may hold its place at most (its timeout, and a margin).
 */
export function createProviderTurns(options: {
  pool: pg.Pool
  log?: Logger
  rates: Record<string, ProviderRate | undefined>
  concurrency?: Record<string, number | undefined>
  leaseMs?: number
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
        extraSlices: EXTRA_SLICES,
      },
    })
    const pauses = sharedPauses(options.pool, provider, options.now ?? Date.now)
    const turn = providerTurn(provider, limiter, pauses, rate, options.now ?? Date.now, options.log)
    const limit = options.concurrency?.[provider]
    const slots =
      limit === undefined
        ? undefined
        : createProviderSlots({
            pool: options.pool,
            provider,
            limit,
            leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
            ...(options.log ? { log: options.log } : {}),
          })
    turns.set(provider, slots ? withSlots(turn, slots) : turn)
  }
  return (provider) => turns.get(provider)
}

/** A place among the calls running at once first, then the rate's turn. */
function withSlots(turn: Turn, slots: ProviderSlots): Turn {
  return {
    async take(signal) {
      const release = await slots.acquire(signal)
      try {
        await turn.take(signal)
      } catch (error) {
        release()
        throw error
      }
      return release
    },
    pause: (ms) => turn.pause(ms),
  }
}

/** A call holds its place no longer than this when no lease is given: a provider call's timeout and more. */
const DEFAULT_LEASE_MS = 5 * 60_000

function providerTurn(
  provider: string,
  limiter: Limiter,
  pauses: SharedPauses,
  rate: ProviderRate,
  now: () => number,
  log?: Logger,
): Turn {
  const stock = Math.max(1, Math.floor(rate.limit * STOCK_SHARE))
  const freshMs = rate.windowSeconds * 1000 * FRESH_SHARE
  let batches: Batch[] = []
  let taking: Promise<number> | undefined
  let refusedUntil = 0
  // The last batch was counted too long before its answer came to be used.
  let lateBefore = false

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
      // Paused by a 429, here or in another process: no turn until the pause ends. Another process's
      // pause is read at most once a PAUSE_CHECK_MS, before a batch as beside the calls: a pause is
      // seen within a second and a batch either way. (When the pause cannot be read, this process's
      // own is all it knows; the rate still holds.)
      await lookForPause()
      const paused = pausedUntil - now()
      if (paused > 0) return paused
      // Refused a moment ago: no statement until the slice that frees a turn has passed. Callers
      // waiting in this process ask Postgres once a slice between them, not once each.
      if (refusedUntil > now()) return refusedUntil - now()
      let cost = stock
      let decision = await limiter.check('all', cost)
      // Fewer than a stock fit: take what does.
      if (!decision.allowed && decision.remaining > 0) {
        cost = Math.min(stock, decision.remaining)
        decision = await limiter.check('all', cost)
      }
      if (!decision.allowed) {
        refusedUntil = now() + decision.retryAfterMs
        return decision.retryAfterMs
      }
      // Usable for a slice from when they were counted, not from when the answer came: a statement
      // that took longer (a busy database, a busy event loop) would otherwise let its turns go out
      // later than the window they were counted in allows for. Turns that come too late are given
      // back (take) and counted again; after a second late answer in a row they are used, counted
      // or not a slice ago: the machine is that slow, and calls must still go.
      const countedAt = decision.checkedAt.getTime()
      const late = now() - countedAt >= freshMs
      batches.push({ decision, left: cost, usableUntil: (late && lateBefore ? now() : countedAt) + freshMs })
      lateBefore = late && !lateBefore
      return 0
    })().finally(() => {
      taking = undefined
    })
    return taking
  }

  let pausedUntil = 0
  let pauseCheckedAt = Number.NEGATIVE_INFINITY
  const pausedTill = (until: number) => {
    if (until <= pausedUntil) return
    pausedUntil = until
    // The turns this process holds would be spent into the 429: given back for after the pause.
    for (const batch of batches) if (batch.left > 0) giveBack(batch)
    batches = []
  }
  // A pause another process recorded, looked for at most once a PAUSE_CHECK_MS: before a batch of
  // turns (awaited) and beside the calls (not). A batch asked for while a look is under way waits for
  // that look: otherwise the batch's statement could answer first, and calls would go out during a
  // pause the look was about to find.
  let pauseLook: Promise<void> = Promise.resolve()
  const lookForPause = (): Promise<void> => {
    if (now() - pauseCheckedAt < PAUSE_CHECK_MS) return pauseLook
    pauseCheckedAt = now()
    pauseLook = pauses.until().then(pausedTill, () => {})
    return pauseLook
  }
  let reportedUntil = 0
  return {
    async take(signal) {
      for (;;) {
        signal.throwIfAborted()
        void lookForPause()
        if (pausedUntil <= now() && take()) {
          // The next call's turns are counted while this one runs.
          if (batches.every((batch) => batch.left === 0)) takeMore().catch(() => {})
          return () => {} // a rate's turn is spent by the call: nothing to give back when it ends
        }
        const asked = Date.now()
        const wait = await untilAborted(takeMore(), signal)
        if (wait === 0) continue
        // Told once a wait: not again each time a waiting call asks.
        const until = now() + wait
        if (wait >= REPORTED_WAIT_MS && until > reportedUntil + PAUSE_CHECK_MS) {
          reportedUntil = until
          reportWait({ provider, ms: wait, why: 'shared_rate' })
        }
        const sleep = Math.min(wait, PAUSE_CHECK_MS) + Math.random() * JITTER_MS
        await sleepUntil(asked + sleep, signal).catch((error) => {
          signal.throwIfAborted() // the run's own reason (its deadline, a cancel), not the timer's
          throw error
        })
      }
    },
    async pause(ms) {
      // A second at least: a client that reads no Retry-After (exa-js) says only "429", and its first
      // backoff is shorter than a per-second rate's window. Not a whole window of a per-minute rate:
      // a 429 for too many calls at once clears in a second, not a minute.
      pausedTill(Math.max(pausedUntil, now() + Math.max(ms, MIN_PAUSE_MS)))
      await pauses.pause(pausedUntil).catch((error: unknown) => {
        log?.warn({ err: error, provider }, 'recording a provider pause failed; only this process waits')
      })
    },
  }
}

type SharedPauses = { until(): Promise<number>; pause(until: number): Promise<void> }

/** A provider's pause as every process sees it: `provider_pauses`, one row a provider. */
function sharedPauses(pool: pg.Pool, provider: string, now: () => number): SharedPauses {
  return {
    async until() {
      const { rows } = await pool.query<{ until: string }>(
        `select (extract(epoch from until) * 1000)::bigint::text as until from provider_pauses
         where provider = $1 and until > to_timestamp($2::bigint / 1000.0)`,
        [provider, now()],
      )
      return rows[0] ? Number(rows[0].until) : 0
    },
    async pause(until) {
      await pool.query(
        `insert into provider_pauses (provider, until) values ($1, to_timestamp($2::bigint / 1000.0))
         on conflict (provider) do update set until = greatest(provider_pauses.until, excluded.until)`,
        [provider, Math.ceil(until)],
      )
    },
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
