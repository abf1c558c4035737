// Providers with limits, as the monitors scenario meets them (issue 42, item 5): the Exa and OpenAI
// stubs of test/support behind a front that enforces a provider's limit the way its gateway does,
// before any of its servers is asked. The search front answers so many requests in any sliding
// window and 429s the rest; the model front answers so many calls at once and 429s one more. Both
// 429s carry `Retry-After: 1` and the provider's own error body. What the front let through is
// passed to the stub unchanged (its latency, answers and records are the stub's), and the front
// keeps what it saw: every arrival, 429 and answer, on its own clock (injectable, for tests).
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FrontLimit, FrontStats } from '#bench/stub-protocol.ts'

export type LimitedFront = {
  url: string
  stats: () => FrontStats
  close: () => Promise<void>
}

/**
 * A sliding-window limit: a request at `at` is let through when fewer than `limit` were let through
 * in the window that ends at it, (at - windowMs, at]. A refused request does not count: a 429 spends
 * none of the rate, so no window ever holds more than `limit` admitted requests.
 */
export function createWindowLimit(limit: number, windowMs: number) {
  const admitted: number[] = []
  let head = 0
  return {
    admit(at: number): boolean {
      while (head < admitted.length && (admitted[head] as number) <= at - windowMs) head++
      if (head > 1024 && head * 2 > admitted.length) {
        admitted.splice(0, head)
        head = 0
      }
      if (admitted.length - head >= limit) return false
      admitted.push(at)
      return true
    },
  }
}

/** The most of `times` (any order) that fall in any half-open window [t, t + windowMs). */
export function peakInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let peak = 0
  for (let start = 0, end = 0; start < sorted.length; start++) {
    while (end < sorted.length && (sorted[end] as number) - (sorted[start] as number) < windowMs) end++
    peak = Math.max(peak, end - start)
  }
  return peak
}

/** The body a provider sends with its 429, with `Retry-After: 1`. */
function rateLimitBody(wire: 'exa' | 'openai', limit: FrontLimit): unknown {
  if (wire === 'exa') return { requestId: randomUUID(), error: 'Rate limit exceeded', tag: 'RATE_LIMIT_EXCEEDED' }
  const what =
    limit.kind === 'concurrency'
      ? `Limit ${limit.limit} concurrent requests`
      : `Limit ${limit.limit} requests per ${limit.windowMs} ms`
  return {
    error: {
      message: `Rate limit reached for requests. ${what}. Please try again in 1s.`,
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  }
}

/** Wall-clock milliseconds with the monotonic clock's precision: the stubs' and the harness's clock. */
function monotonicNow(): number {
  return performance.timeOrigin + performance.now()
}

/** Starts a front on loopback that lets requests through to `upstream` (a stub's URL) within `limit`. */
export async function startLimitedFront(options: {
  upstream: string
  wire: 'exa' | 'openai'
  limit: FrontLimit
  /** The front's clock; a test passes its own to put requests in one window whatever the machine's speed. */
  now?: () => number
}): Promise<LimitedFront> {
  const now = options.now ?? monotonicNow
  const { limit } = options
  const target = new URL(options.upstream)
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const window = limit.kind === 'window' ? createWindowLimit(limit.limit, limit.windowMs) : undefined
  const arrivals: number[] = []
  const admittedTimes: number[] = []
  const rejectedTimes: number[] = []
  const answered: Record<string, number> = {}
  let inFlight = 0
  let peakAtOnce = 0
  let peakAdmittedAtOnce = 0

  const server = http.createServer((request, response) => {
    const at = now()
    arrivals.push(at)
    peakAtOnce = Math.max(peakAtOnce, inFlight + 1)
    const admitted = window ? window.admit(at) : inFlight < limit.limit
    if (!admitted) {
      rejectedTimes.push(at)
      request.resume() // the body is not read: the answer does not depend on it
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify(rateLimitBody(options.wire, limit)))
      return
    }
    admittedTimes.push(at)
    inFlight += 1
    peakAdmittedAtOnce = Math.max(peakAdmittedAtOnce, inFlight)
    let left = false
    const leave = () => {
      if (left) return
      left = true
      inFlight -= 1
    }
    response.once('finish', leave)
    response.once('close', leave) // a client that gave up frees the slot too
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (upstream) => {
        const status = String(upstream.statusCode ?? 0)
        answered[status] = (answered[status] ?? 0) + 1
        response.writeHead(upstream.statusCode ?? 502, upstream.headers)
        upstream.pipe(response)
      },
    )
    forwarded.on('error', (error) => {
      answered.error = (answered.error ?? 0) + 1
      if (response.headersSent) response.destroy(error)
      else response.writeHead(502, { 'content-type': 'text/plain' }).end(`front: ${error.message}`)
    })
    request.pipe(forwarded)
  })
  // The server's processes keep their connections to a provider open between calls.
  server.keepAliveTimeout = 65_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`,
    stats() {
      const first = arrivals[0]
      const perSecond: FrontStats['perSecond'] = []
      const bucket = (time: number) => {
        const second = Math.floor((time - (first ?? 0)) / 1000)
        while (perSecond.length <= second) perSecond.push({ arrivals: 0, rejected: 0 })
        return perSecond[second] as { arrivals: number; rejected: number }
      }
      for (const time of arrivals) bucket(time).arrivals += 1
      for (const time of rejectedTimes) bucket(time).rejected += 1
      const windowMs = limit.kind === 'window' ? limit.windowMs : 1000
      return {
        limit,
        arrivals: arrivals.length,
        rejected: rejectedTimes.length,
        answered: { ...answered },
        peakInWindow: peakInWindow(arrivals, windowMs),
        peakAdmittedInWindow: peakInWindow(admittedTimes, windowMs),
        peakAtOnce,
        peakAdmittedAtOnce,
        firstArrivalAt: first ?? null,
        lastArrivalAt: arrivals.at(-1) ?? null,
        perSecond,
        inFlight,
      }
    },
    close() {
      agent.destroy()
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
