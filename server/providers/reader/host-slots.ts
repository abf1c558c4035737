// At most N requests to one host at once, whatever number of runs read from it: a run's pages often
// share a site, and a site should not see a burst from us. Waiters are served in order.

export type HostSlots = {
  /** Waits for a slot for the host; resolves with its release. Rejects if the signal aborts first. */
  acquire: (host: string, signal: AbortSignal) => Promise<() => void>
}

export function createHostSlots(perHost: number): HostSlots {
  const hosts = new Map<string, { busy: number; waiting: Array<() => void> }>()

  function release(host: string): void {
    const state = hosts.get(host)
    if (!state) return
    const next = state.waiting.shift()
    if (next) next()
    else if (--state.busy === 0) hosts.delete(host)
  }

  function acquire(host: string, signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted()
    const state = hosts.get(host) ?? { busy: 0, waiting: [] }
    hosts.set(host, state)
    const releaser = () => {
      let released = false
      return () => {
        if (!released) release(host)
        released = true
      }
    }
    if (state.busy < perHost) {
      state.busy++
      return Promise.resolve(releaser())
    }
    return new Promise((resolve, reject) => {
      // The slot passes straight to the waiter, so `busy` stays as it is.
      const grant = () => {
        signal.removeEventListener('abort', abandon)
        resolve(releaser())
      }
      const abandon = () => {
        const index = state.waiting.indexOf(grant)
        if (index >= 0) state.waiting.splice(index, 1)
        reject(signal.reason)
      }
      state.waiting.push(grant)
      signal.addEventListener('abort', abandon, { once: true })
    })
  }

  return { acquire }
}
