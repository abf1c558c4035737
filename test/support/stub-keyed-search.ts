// Stand-ins for Tavily (`POST /search`, the key as a Bearer token), the Brave Search API
// (`GET /res/v1/web/search`, the key in X-Subscription-Token) and a SearXNG instance
// (`GET /search?format=json`), each in its real wire format: each checks the key (or the format),
// answers from its own list of documents with its own date filter, records every request, and fails
// on demand (429 with Retry-After or Brave's X-RateLimit headers, a refused key, 500, an answer that
// is not JSON, a slow answer, or none at all). The formats live in stub-keyed-search-formats.ts.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  braveAnswer,
  type StubAnswer,
  type StubContext,
  type StubSearchDocument,
  searxngAnswer,
  tavilyAnswer,
} from '#test/support/stub-keyed-search-formats.ts'

export type { StubSearchDocument } from '#test/support/stub-keyed-search-formats.ts'

export const STUB_TAVILY_API_KEY = 'tvly-test-key'
export const STUB_BRAVE_API_KEY = 'brave-test-key'

export type StubSearchRequest = {
  method: string
  path: string
  /** The query string's parameters. */
  params: Record<string, string>
  headers: http.IncomingHttpHeaders
  /** The JSON body (Tavily), or undefined. */
  body: unknown
  /** When it arrived (epoch ms). */
  at: number
}

/**
 * 'refuse-key': the provider's answer to a key it does not know, whatever was sent. 'quota': the
 * account's limit is reached (Tavily 432, Brave 429 with the month's window spent). 'slow': the
 * answer after `delayMs`. 'engines-failing' (SearXNG): an answer whose engines partly did not answer.
 */
export type StubSearchBehaviour =
  | 'answer'
  | 'rate-limit'
  | 'refuse-key'
  | 'quota'
  | 'server-error'
  | 'garbage'
  | 'slow'
  | 'hang'
  | 'engines-failing'

export type StubKeyedSearch = {
  url: string
  /** The settings that point the app at this stub. */
  env: Record<string, string>
  requests: StubSearchRequest[]
  /** The live list: tests may change it between searches. */
  documents: StubSearchDocument[]
  /**
   * The next `times` requests (every one, without `times`) get `behaviour`. `retryAfterSeconds`: sent
   * as Retry-After with a 429 (Brave always sends its X-RateLimit headers; they say 1 s).
   */
  setBehaviour: (
    behaviour: StubSearchBehaviour,
    options?: { times?: number; retryAfterSeconds?: number; delayMs?: number },
  ) => void
  close: () => Promise<void>
}

export function startStubTavily(documents: StubSearchDocument[] = []): Promise<StubKeyedSearch> {
  return startStub('tavily', documents, (base) => ({ TAVILY_API_KEY: STUB_TAVILY_API_KEY, TAVILY_BASE_URL: base }))
}

export function startStubBrave(documents: StubSearchDocument[] = []): Promise<StubKeyedSearch> {
  return startStub('brave', documents, (base) => ({ BRAVE_API_KEY: STUB_BRAVE_API_KEY, BRAVE_BASE_URL: base }))
}

/** `jsonFormat: false`: an instance with only the default HTML format enabled. */
export function startStubSearxng(
  documents: StubSearchDocument[] = [],
  options: { jsonFormat?: boolean } = {},
): Promise<StubKeyedSearch> {
  return startStub('searxng', documents, (base) => ({ SEARXNG_URL: base }), options.jsonFormat ?? true)
}

type Provider = 'tavily' | 'brave' | 'searxng'

async function startStub(
  provider: Provider,
  documents: StubSearchDocument[],
  env: (base: string) => Record<string, string>,
  jsonFormat = true,
): Promise<StubKeyedSearch> {
  const requests: StubSearchRequest[] = []
  let behaviour: StubSearchBehaviour = 'answer'
  let remaining = 0
  let retryAfterSeconds: number | undefined
  let delayMs = 0

  function nextBehaviour(): StubSearchBehaviour {
    if (remaining <= 0) return 'answer'
    remaining -= 1
    return behaviour
  }

  const server = http.createServer(async (request, response) => {
    let raw = ''
    for await (const chunk of request) raw += chunk
    const url = new URL(request.url ?? '/', 'http://stub')
    let body: unknown
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      body = raw
    }
    requests.push({
      at: Date.now(),
      method: request.method ?? '',
      path: url.pathname,
      params: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body,
    })
    const send = ([status, type, text, headers = {}]: StubAnswer) =>
      response.writeHead(status, { 'content-type': type, ...headers }).end(text)
    const route = ROUTES[provider]
    if (request.method !== route.method || url.pathname !== route.path) {
      return send([404, 'text/plain', `No route ${request.method} ${url.pathname}`])
    }
    const refusal = route.refuse(request.headers, url.searchParams, jsonFormat)
    if (refusal) return send(refusal)
    const now = nextBehaviour()
    if (now === 'hang') return // the socket stays open until close()
    if (now === 'slow') await sleep(delayMs)
    send(
      route.answer(now === 'slow' ? 'answer' : now, { params: url.searchParams, body, documents, retryAfterSeconds }),
    )
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}`
  return {
    url: base,
    env: env(base),
    requests,
    documents,
    setBehaviour(next, options = {}) {
      behaviour = next
      remaining = options.times ?? Number.POSITIVE_INFINITY
      retryAfterSeconds = options.retryAfterSeconds
      delayMs = options.delayMs ?? 0
    },
    close() {
      server.closeAllConnections() // including the ones left hanging on purpose
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

type Route = {
  method: string
  path: string
  answer: (behaviour: StubSearchBehaviour, context: StubContext) => StubAnswer
  /** The provider's refusal of the request itself (a key it does not know, a format turned off). */
  refuse: (headers: http.IncomingHttpHeaders, params: URLSearchParams, jsonFormat: boolean) => StubAnswer | undefined
}

const JSON_TYPE = 'application/json'

const ROUTES: Record<Provider, Route> = {
  tavily: {
    method: 'POST',
    path: '/search',
    answer: tavilyAnswer,
    refuse: (headers) =>
      headers.authorization === `Bearer ${STUB_TAVILY_API_KEY}`
        ? undefined
        : [401, JSON_TYPE, JSON.stringify({ detail: { error: 'Unauthorized: missing or invalid API key.' } })],
  },
  brave: {
    method: 'GET',
    path: '/res/v1/web/search',
    answer: braveAnswer,
    refuse: (headers) =>
      headers['x-subscription-token'] === STUB_BRAVE_API_KEY
        ? undefined
        : [
            422,
            JSON_TYPE,
            JSON.stringify({
              type: 'ErrorResponse',
              error: {
                id: '0c2f7a4e-3b1d-4c59-9f0e-6d8a1b2c3d4e',
                status: 422,
                code: 'SUBSCRIPTION_TOKEN_INVALID',
                detail: 'The provided subscription token is invalid.',
                meta: {},
              },
              time: Math.floor(Date.now() / 1000),
            }),
          ],
  },
  searxng: {
    method: 'GET',
    path: '/search',
    answer: searxngAnswer,
    // SearXNG aborts with a bare 403 when the asked format is not in search.formats.
    refuse: (_headers, params, jsonFormat) =>
      params.get('format') === 'json' && !jsonFormat
        ? [
            403,
            'text/html; charset=utf-8',
            '<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n',
          ]
        : undefined,
  },
}
