// What every keyless open source shares: a GET with our named User-Agent, the source's pacing,
// retries with backoff on 429 and 5xx (honouring Retry-After), a cap on the answer's size, and
// failures that say whether the source was reachable at all (so `open` can tell an offline machine).
import { callWithRetries, isRetryableStatus, parseRetryAfter } from '#server/providers/retry.ts'
import { createPacer } from '#server/providers/search/pacer.ts'
import { ProviderError } from '#server/providers/types.ts'

/** What the app gives each open source (server/providers/index.ts). */
export type OpenSourceOptions = {
  /** Scheme, host and any path prefix; the source appends its API's path. */
  baseUrl: string
  /** "Sextant/1.0 (+https://sextant.example; ops@example.org)": who is asking, and how to reach them. */
  userAgent: string
  /** Per attempt. */
  timeoutMs: number
  /** Replaces the source's documented interval between requests (tests that need no courtesy). */
  minIntervalMs?: number
}

export type SourceAnswer = { status: number; contentType: string; body: string }

/** A search answer is a page of metadata; anything near this is not one. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024
/** A Retry-After longer than this is not waited for: the search fails and the run goes on without the source. */
const MAX_RETRY_AFTER_MS = 10_000
/** Connection failures that never reached the source: refused, no such host, no route. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
])

/**
 * The source could not be talked to: the connection failed or nothing answered in time. When every
 * open source fails this way, the machine is offline (see open.ts).
 */
export class SourceUnreachableError extends ProviderError {
  /** False when the request never got to the server (refused, DNS): the source's pacing is not spent. */
  readonly reachedServer: boolean
  constructor(
    provider: string,
    message: string,
    options: { retryable: boolean; reachedServer: boolean; cause: unknown },
  ) {
    super(provider, message, { retryable: options.retryable, cause: options.cause })
    this.name = 'SourceUnreachableError'
    this.reachedServer = options.reachedServer
  }
}

export type SourceClient = {
  /**
   * GETs `path` with `params` and hands the answer to `read`, which turns it into results or throws
   * a ProviderError (retryable ones are retried: some sources say "slow down" with a 200).
   */
  get<T>(
    path: string,
    params: Record<string, string>,
    read: (answer: SourceAnswer) => T,
    signal: AbortSignal,
  ): Promise<T>
}

export function createSourceClient(
  source: { name: string; minIntervalMs: number; accept: string },
  options: OpenSourceOptions,
): SourceClient {
  const pacer = createPacer(options.minIntervalMs ?? source.minIntervalMs)
  const classify = (error: unknown) => classifyFailure(source.name, error, options)
  return {
    get(path, params, read, signal) {
      const url = new URL(`${options.baseUrl}${path}`)
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
      return callWithRetries(
        (attemptSignal) =>
          pacer.run(
            async () => {
              const answer = await fetchAnswer(source.name, url, { accept: source.accept, ...options }, attemptSignal)
              return read(answer)
            },
            attemptSignal,
            (error) => !(error instanceof SourceUnreachableError) || error.reachedServer,
          ),
        { signal, timeoutMs: options.timeoutMs, classify },
      )
    },
  }
}

async function fetchAnswer(
  name: string,
  url: URL,
  options: { accept: string; userAgent: string; baseUrl: string; timeoutMs: number },
  signal: AbortSignal,
): Promise<SourceAnswer> {
  let response: Response
  try {
    response = await fetch(url, {
      headers: { 'user-agent': options.userAgent, accept: options.accept },
      redirect: 'follow',
      signal,
    })
  } catch (error) {
    throw classifyFailure(name, error, options)
  }
  const body = await readCapped(name, response, signal)
  if (response.ok) return { status: response.status, contentType: response.headers.get('content-type') ?? '', body }
  const detail = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
  if (response.status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
    const pause = retryAfterMs === undefined ? '' : `; it asks for a pause of ${Math.ceil(retryAfterMs / 1000)} s`
    throw new ProviderError(name, `${name} is rate limiting these searches (HTTP 429${pause})${said(detail)}`, {
      retryable: retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS,
      status: 429,
      retryAfterMs,
    })
  }
  throw new ProviderError(name, `${name} failed (HTTP ${response.status})${said(detail)}`, {
    retryable: isRetryableStatus(response.status),
    status: response.status,
  })
}

function said(detail: string): string {
  return detail ? `: ${detail}` : ''
}

/** The answer's body as text, refused past MAX_ANSWER_BYTES (also used by the keyed APIs of web-api.ts). */
export async function readCapped(name: string, response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const chunks: Uint8Array[] = []
  let bytes = 0
  try {
    for await (const chunk of response.body) {
      bytes += chunk.byteLength
      if (bytes > MAX_ANSWER_BYTES) {
        await response.body.cancel().catch(() => {})
        throw new ProviderError(name, `${name} answered with more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, {
          retryable: false,
        })
      }
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof ProviderError) throw error
    signal.throwIfAborted()
    if (error instanceof DOMException) throw error // our own timeout: classified by the caller
    throw new SourceUnreachableError(name, `${name} dropped the connection in the middle of its answer.`, {
      retryable: true,
      reachedServer: true,
      cause: error,
    })
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Whatever fetch or reading threw, as a ProviderError that says whether the source was reached at all. */
export function classifyFailure(
  name: string,
  error: unknown,
  options: { baseUrl?: string; timeoutMs: number },
): ProviderError {
  if (error instanceof ProviderError) return error
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new SourceUnreachableError(name, `${name} did not answer within ${options.timeoutMs / 1000} s.`, {
      retryable: true,
      reachedServer: true,
      cause: error,
    })
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const code = networkCode(error.cause)
    // A failure with no system code never left this process: fetch itself refused the request (a
    // port the Fetch standard bars, such as 9 or 25, or a scheme it does not speak).
    const reachedServer = code !== undefined && !UNREACHABLE_CODES.has(code)
    const reason = code ?? (error.cause instanceof Error ? error.cause.message : undefined)
    const where = options.baseUrl ? ` at ${options.baseUrl}` : ''
    return new SourceUnreachableError(name, `Could not reach ${name}${where}${reason ? ` (${reason})` : ''}.`, {
      // A refused connection or an unknown host will not be there a second later; a dropped one may.
      retryable: reachedServer,
      reachedServer,
      cause: error,
    })
  }
  return new ProviderError(name, `${name} search failed: ${error instanceof Error ? error.message : String(error)}`, {
    retryable: false,
    cause: error,
  })
}

/** fetch's `cause` is the system error (ECONNREFUSED, ENOTFOUND, ...), sometimes one level further down. */
function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code
  }
  return undefined
}
