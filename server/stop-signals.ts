// How the process answers SIGINT and SIGTERM. A terminal's Ctrl-C goes to the whole foreground
// process group, so under `npm start` node gets the signal from the terminal and again from npm,
// which forwards what it gets to its child. That echo is the same request: a clean stop. A later
// signal, or another kind, is a person asking again: exit at once (the embedded Postgres is still
// stopped, by its exit hook in db/embedded.ts).

/** How long after a signal the same signal still counts as the same request (npm's echo). */
export const SAME_REQUEST_MS = 1_000

export type StopSignal = 'SIGINT' | 'SIGTERM'

export function stopSignalHandler(options: {
  /** The first request: a clean stop. */
  stop: (signal: StopSignal) => void
  /** A second request: exit now. */
  exitNow: (signal: StopSignal) => void
  /** The echo of the first request, ignored. */
  echoed?: (signal: StopSignal) => void
  now?: () => number
  sameRequestMs?: number
}): (signal: StopSignal) => void {
  const now = options.now ?? (() => performance.now())
  const sameRequestMs = options.sameRequestMs ?? SAME_REQUEST_MS
  let first: { signal: StopSignal; at: number } | undefined
  return (signal) => {
    if (!first) {
      first = { signal, at: now() }
      options.stop(signal)
    } else if (signal === first.signal && now() - first.at < sameRequestMs) {
      options.echoed?.(signal)
    } else {
      options.exitNow(signal)
    }
  }
}
