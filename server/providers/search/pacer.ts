// The courtesy each open source asks of its clients: one request at a time, their starts at least
// a minimum interval apart (GDELT one every 5 s, arXiv one every 3 s; see the adapters). Requests
// wait their turn in order; one that gives up waiting (its signal aborted) passes its turn on.
import { type Clock, sleepUntil, systemClock } from '#server/providers/sleep-until.ts'

export type Pacer = {
  /**
   * Runs `request` when its turn comes. `reachedServer(error)` says whether a failed request got to
   * the server at all: one that did not (refused, no DNS) costs the server nothing, so the next
   * request need not keep the interval after it (an offline machine then fails fast, not every 5 s).
   */
  run<T>(request: () => Promise<T>, signal: AbortSignal, reachedServer?: (error: unknown) => boolean): Promise<T>
}

export function createPacer(minIntervalMs: number, clock: Clock = systemClock): Pacer {
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
        await sleepUntil(lastStartedAt + minIntervalMs, signal, clock)
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
