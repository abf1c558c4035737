// Waiting until a time on the clock, for the waits providers ask for (a Retry-After, a source's
// interval between requests). A timer alone can end early by the clock: Node counts it from the event
// loop's cached time, which lags behind Date.now() when the loop is busy (decision 031 tells how it
// was found). So this sleeps again until the clock says it is time.
import { setTimeout as sleep } from 'node:timers/promises'

/** What a wait reads the time with and sleeps on; tests pass their own. */
export type Clock = { now: () => number; sleep: (ms: number, signal: AbortSignal) => Promise<void> }

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
}

/** Resolves once `clock.now()` has reached `until`; rejects with the signal's reason if it aborts first. */
export async function sleepUntil(until: number, signal: AbortSignal, clock: Clock = systemClock): Promise<void> {
  for (let wait = until - clock.now(); wait > 0; wait = until - clock.now()) await clock.sleep(wait, signal)
}
