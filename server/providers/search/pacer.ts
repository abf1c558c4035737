// The courtesy each open source asks of its clients: one request at a time, their starts at least
// a minimum interval apart (GDELT one every 5 s, arXiv one every 3 s; see the adapters). Requests
// wait their turn in order; one that gives up waiting (its signal aborted) passes its turn on.
import { setTimeout as sleep } from 'node:timers/promises'

export type Pacer = {
  /**
   * Runs `request` when its turn comes. `reachedServer(error)` says whether a failed request got to
   * the server at all: one that did not (refused, no DNS) costs the server nothing, so the next
   * request need not keep the interval after it (an offline machine then fails fast, not every 5 s).
   */
  run<T>(request: () => Promise<T>, signal: AbortSignal, reachedServer?: (error: unknown) => boolean): Promise<T>
}

/** What the pacer reads the time with and waits on; tests pass their own. */
export type PacerClock = { now: () => number; sleep: (ms: number, signal: AbortSignal) => Promise<void> }

const systemClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
}

export function createPacer(minIntervalMs: number, clock: PacerClock = systemClock): Pacer {
  let tail: Promise<void> = Promise.resolve()
  let lastStartedAt = Number.NEGATIVE_INFINITY
  return {
    async run(request, signal, reachedServer = () => true) {
      const previous = tail
      let release = () => {}
      tail = new Promise<void>((resolve) => {
        release = resolve
      })
      try {
        await untilSettled(previous, signal)
        // A timer can fire early by the clock: Node counts it from the event loop's idea of now, which
        // lags behind when the loop is busy. So wait until the interval has really passed.
        for (let wait = lastStartedAt + minIntervalMs - clock.now(); wait > 0; ) {
          await clock.sleep(wait, signal)
          wait = lastStartedAt + minIntervalMs - clock.now()
        }
        const startedAt = clock.now()
        try {
          const result = await request()
          lastStartedAt = startedAt
          return result
        } catch (error) {
          if (reachedServer(error)) lastStartedAt = startedAt
          throw error
        }
      } finally {
        // The next in line goes when this one is done, or, if this one gave up waiting, when the one
        // before it is done: the order holds either way.
        void previous.then(release)
      }
    },
  }
}

function untilSettled(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted()
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    })
  })
}
