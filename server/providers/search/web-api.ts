// A GET to a search API that answers JSON and takes requests in parallel (Brave's keyed API, a
// SearXNG instance): our User-Agent and the API's own headers, retries with backoff on 429, 5xx and
// timeouts (honouring Retry-After), a cap on the answer's size, and refusals the adapter explains in
// its own words (a key refused, a format disabled). Unlike the open sources' client, nothing is paced:
// a paid API or one's own instance takes a run's parallel queries as they come.
import { callWithRetries, isRetryableStatus, parseRetryAfter } from '#server/providers/retry.ts'
import { classifyFailure, readCapped } from '#server/providers/search/source-client.ts'
import { ProviderError } from '#server/providers/types.ts'

export type WebApi = {
  /** As messages name it: "Brave", "SearXNG". */
  name: string
  /** The setting that holds the base URL, named when the answer is not what this API answers. */
  setting: string
  /** Scheme, host and any path prefix; the adapter appends its API's path. */
  baseUrl: string
  /** Our User-Agent, and the API's key header when it has one. */
  headers: Record<string, string>
  /** Per attempt. */
  timeoutMs: number
  /** The adapter's own ProviderError for a refusal it knows (undefined: the usual rule applies). */
  explain?: (refusal: ApiRefusal) => ProviderError | undefined
}

/** A non-2xx answer: its status, headers and the start of its body as plain text. */
export type ApiRefusal = { status: number; headers: Headers; detail: string; body: string }

/** A Retry-After longer than this is not waited for: the search fails and the run goes on without it. */
export const MAX_RETRY_AFTER_MS = 10_000

/** GETs `path` with `params` and returns the parsed JSON, retrying what is worth retrying. */
export function getJson(
  api: WebApi,
  path: string,
  params: Record<string, string>,
  signal: AbortSignal,
): Promise<unknown> {
  const url = new URL(`${api.baseUrl}${path}`)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return callWithRetries((attemptSignal) => fetchJson(api, url, attemptSignal), {
    signal,
    timeoutMs: api.timeoutMs,
    classify: (error) => classifyFailure(api.name, error, api),
  })
}

async function fetchJson(api: WebApi, url: URL, signal: AbortSignal): Promise<unknown> {
  let response: Response
  try {
    // A redirect is not followed: it would carry the key header to wherever it points.
    response = await fetch(url, {
      headers: { accept: 'application/json', ...api.headers },
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    throw classifyFailure(api.name, error, api)
  }
  const body = await readCapped(api.name, response, signal)
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location') ?? 'nowhere'
    throw new ProviderError(
      api.name,
      `${api.name} answered with a redirect (HTTP ${response.status}) to ${location}: set ${api.setting} to the address it names.`,
      { retryable: false, status: response.status },
    )
  }
  if (!response.ok)
    throw refusal(api, { status: response.status, headers: response.headers, body, detail: plain(body) })
  try {
    return JSON.parse(body)
  } catch {
    // A truncated answer, or the setting pointing at something that is not this API.
    throw new ProviderError(
      api.name,
      `${api.name} answered with something that is not JSON (check ${api.setting}): ${plain(body) || 'an empty answer'}`,
      { retryable: true, status: response.status },
    )
  }
}

function refusal(api: WebApi, answer: ApiRefusal): ProviderError {
  const explained = api.explain?.(answer)
  if (explained) return explained
  const said = answer.detail ? `: ${answer.detail}` : ''
  if (answer.status === 429) {
    const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'))
    const pause = retryAfterMs === undefined ? '' : `; it asks for a pause of ${Math.ceil(retryAfterMs / 1000)} s`
    return new ProviderError(api.name, `${api.name} is rate limiting these searches (HTTP 429${pause})${said}`, {
      retryable: retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS,
      status: 429,
      retryAfterMs,
    })
  }
  return new ProviderError(api.name, `${api.name} failed (HTTP ${answer.status})${said}`, {
    retryable: isRetryableStatus(answer.status),
    status: answer.status,
  })
}

/** An error body (HTML, JSON or text) as one short line for a message. */
function plain(body: string): string {
  return body
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
}
