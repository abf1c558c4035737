// Every provider call goes through here: a per-attempt timeout, retries with exponential backoff
// and jitter for 429/5xx/timeouts (honouring Retry-After), and the run's own abort signal on top.
import { sleepUntil } from '#server/providers/sleep-until.ts'
import { ProviderError, type Turn } from '#server/providers/types.ts'
import { reportWait } from '#server/providers/waits.ts'

export type RetryOptions = {
  /** The run's signal (deadline, cancellation): aborts the attempt and the waiting between attempts. */
  signal: AbortSignal
  timeoutMs: number
  attempts?: number
  baseDelayMs?: number
  maxDelayMs?: number
  /** Turns whatever the client threw into a ProviderError that says whether to retry. */
  classify: (error: unknown) => ProviderError
  /**
   * The provider's rate shared by every process (server/limits/provider-turns.ts): taken before each
   * attempt, and paused for every process by a 429.
   */
  turn?: Turn
}

/**
 * A provider with a shared rate (a turn) that answers 429 is waited for while the run has time: its
 * 429s do not use up the attempts, up to this many of them (a run's deadline ends the wait first).
 */
const MAX_RATE_LIMITED = 20

export async function callWithRetries<T>(call: (signal: AbortSignal) => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = options.attempts ?? 3
  const baseDelayMs = options.baseDelayMs ?? 500
  const maxDelayMs = options.maxDelayMs ?? 8000
  let rateLimited = 0
  let refusedBy: string | undefined
  for (let attempt = 1; ; attempt++) {
    options.signal.throwIfAborted()
    const release = await options.turn?.take(options.signal)
    try {
      const answer = await call(AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]))
      release?.()
      if (refusedBy) reportWait({ provider: refusedBy, why: 'answered' })
      return answer
    } catch (error) {
      release?.() // before any wait: a call waiting to try again holds no place among those running
      options.signal.throwIfAborted() // the run was cancelled or hit its deadline: not the provider's fault
      const failure = error instanceof ProviderError ? error : options.classify(error)
      // A provider with a rate shared by every process is waited for; another's 429s are attempts.
      const limited =
        options.turn !== undefined && failure.retryable && failure.status === 429 && rateLimited < MAX_RATE_LIMITED
      if (limited) {
        rateLimited += 1
        attempt -= 1
        refusedBy = failure.provider
      }
      if (!failure.retryable || attempt >= attempts) throw failure
      const backoff =
        Math.min(maxDelayMs, baseDelayMs * 2 ** (Math.max(attempt, rateLimited) - 1)) * (0.5 + Math.random() / 2)
      const wait = Math.min(maxDelayMs * 4, failure.retryAfterMs ?? backoff)
      if (limited) {
        reportWait({ provider: failure.provider, ms: wait, why: 'rate_limited' })
        // Every process waits as long, not only this call.
        await options.turn?.pause(wait).catch(() => {})
      }
      await sleepUntil(Date.now() + wait, options.signal).catch((error) => {
        options.signal.throwIfAborted() // the run's own reason (its deadline, a cancel), not the timer's
        throw error
      })
    }
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unusable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The usual rule for HTTP providers: 408, 429 and 5xx are worth another try, other 4xx are not. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500
}

/**
 * For clients whose requests cannot be cancelled (exa-js and @tavily/core take no AbortSignal): stop
 * waiting for the request instead. The abandoned request ends when the server answers or drops the
 * connection (or at the client's own timeout).
 */
export function settleOrAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
