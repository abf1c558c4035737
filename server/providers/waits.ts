// Waits a run sits through for a provider (its 429, its shared rate), reported to whoever runs the
// calls: the research pipeline shows each as a step detail ("Waiting for exa's rate limit (12 s)").
// A provider that answers again after a 429 is reported too: a run out of time while the provider
// still refuses fails naming it.
// An AsyncLocalStorage carries the listener through the providers' calls, so no provider's signature
// has to know about runs; a call made outside a run reports to no one.
import { AsyncLocalStorage } from 'node:async_hooks'

export type ProviderWait = {
  provider: string
  ms: number
  /**
   * `rate_limited`: the provider said 429; `shared_rate`: the processes' shared rate is spent;
   * `shared_concurrency`: every process together has as many calls to it running as it allows (`ms`:
   * how long this call has waited so far).
   */
  why: 'rate_limited' | 'shared_rate' | 'shared_concurrency'
}

/** A wait, or a provider that answered a call after refusing it with 429. */
export type ProviderNews = ProviderWait | { provider: string; why: 'answered' }

const listeners = new AsyncLocalStorage<(news: ProviderNews) => void>()

/** Runs `work` with `listener` told of every provider wait inside it. */
export function reportingWaits<T>(listener: (news: ProviderNews) => void, work: () => Promise<T>): Promise<T> {
  return listeners.run(listener, work)
}

export function reportWait(news: ProviderNews): void {
  try {
    listeners.getStore()?.(news)
  } catch {
    // A listener's failure is no failure of the call it watches.
  }
}
