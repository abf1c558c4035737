// robots.txt, per origin, as RFC 9309 reads it: a 2xx file is obeyed for our product token; a 4xx
// (no file) allows everything; a 5xx, a timeout or any other failure to fetch it disallows the whole
// site, for a short while only, so a site that is down now is tried again by a later run.
import robotsParser from 'robots-parser'
import { Refusal } from '#server/providers/reader/safe-fetch.ts'

/** What fetching /robots.txt gave: the HTTP status and, for a 2xx, the file. Throws when unreachable. */
export type RobotsFetch = (robotsUrl: string, signal: AbortSignal) => Promise<{ status: number; body: string | null }>

type Verdict = { allows: (url: string) => boolean }

export type RobotsOptions = {
  fetch: RobotsFetch
  /** The product token rules are matched against ("Sextant"). */
  agent: string
  /** How long a fetched (or missing) robots.txt is trusted. */
  ttlMs: number
  /** How long an unreachable robots.txt keeps the site closed. */
  failureTtlMs: number
  /** Bounds the fetch of the file itself, which every read of the origin waits on. */
  timeoutMs: number
  maxOrigins?: number
}

export function createRobots(options: RobotsOptions): { check: (url: URL, signal: AbortSignal) => Promise<void> } {
  const maxOrigins = options.maxOrigins ?? 1000
  // Insertion order is age order: the oldest origin is dropped first when the cache is full. A pending
  // fetch is shared by every read of the origin that arrives meanwhile.
  const cache = new Map<string, { expires: number; verdict: Promise<Verdict> }>()

  function verdictFor(origin: string): Promise<Verdict> {
    const cached = cache.get(origin)
    if (cached && cached.expires > Date.now()) return cached.verdict
    cache.delete(origin)
    const entry = { expires: Number.POSITIVE_INFINITY, verdict: load(origin) }
    entry.verdict.then(
      (verdict) => {
        entry.expires = Date.now() + (verdict === CLOSED ? options.failureTtlMs : options.ttlMs)
      },
      () => cache.delete(origin),
    )
    cache.set(origin, entry)
    while (cache.size > maxOrigins) cache.delete(cache.keys().next().value as string)
    return entry.verdict
  }

  async function load(origin: string): Promise<Verdict> {
    const robotsUrl = `${origin}/robots.txt`
    try {
      // Not the reading run's signal: the answer serves every run that reads this origin.
      const { status, body } = await options.fetch(robotsUrl, AbortSignal.timeout(options.timeoutMs))
      if (status >= 200 && status < 300) {
        const robots = robotsParser(robotsUrl, body ?? '')
        return { allows: (url) => robots.isAllowed(url, options.agent) !== false }
      }
      if (status >= 400 && status < 500) return OPEN
      return CLOSED
    } catch {
      return CLOSED
    }
  }

  return {
    async check(url, signal) {
      const verdict = await waitOrAbort(verdictFor(url.origin), signal)
      if (verdict === CLOSED) throw new Refusal('robots.txt could not be fetched, so the site is not read for now')
      if (!verdict.allows(url.href)) throw new Refusal('robots.txt disallows it')
    },
  }
}

const OPEN: Verdict = { allows: () => true }
const CLOSED: Verdict = { allows: () => false }

function waitOrAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        resolve(value)
      },
      (error) => {
        signal.removeEventListener('abort', abort)
        reject(error)
      },
    )
  })
}
