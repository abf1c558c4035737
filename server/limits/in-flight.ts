// At most a few pieces of slow work (an argon2 check) at once per client address, in this process.
// Checked synchronously, so a burst of concurrent requests sees every slot taken as it is taken; the
// requests over it are refused at once instead of queueing CPU work in front of everyone else's.
export type InFlightGate = {
  /** A function that frees the slot, or undefined when `key` already has all its slots taken. */
  enter: (key: string) => (() => void) | undefined
}

export function createInFlightGate(slotsPerKey: number): InFlightGate {
  const running = new Map<string, number>()
  return {
    enter(key) {
      const taken = running.get(key) ?? 0
      if (taken >= slotsPerKey) return undefined
      running.set(key, taken + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const left = (running.get(key) ?? 1) - 1
        if (left > 0) running.set(key, left)
        else running.delete(key)
      }
    },
  }
}
