// A stand-in for Exa's `POST /search` that the real exa-js client talks to: it checks the
// `x-api-key` header, answers from an in-memory list of documents, records every request, and
// fails on demand (429 with Retry-After, 500, a body that is not JSON, or no answer at all).
// The benchmark gives it a fixed latency and a result generator, and reads when each answer was served.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export type StubExaDocument = {
  url: string
  title: string | null
  /** As Exa gives it: an ISO datetime, or null when it does not know. */
  publishedDate: string | null
  author?: string | null
  /** Absent: Exa had no text for the page, and the result carries none. */
  text?: string
}

/** The body exa-js sends for `exa.search(query, { numResults, startPublishedDate, contents })`. */
export type StubExaSearchBody = {
  query: string
  numResults?: number
  startPublishedDate?: string
  contents?: { text?: boolean | { maxCharacters?: number } }
  [option: string]: unknown
}

/** `at`: when it arrived, by the stub's clock (epoch ms). */
export type StubExaRequest = {
  method: string
  path: string
  apiKey: string | undefined
  body: StubExaSearchBody
  at: number
}

/** `empty`: a good answer that found nothing (the web had nothing new). */
export type StubExaBehaviour = 'answer' | 'empty' | 'rate-limit' | 'server-error' | 'garbage' | 'hang'

/** One answered search: when it arrived and when its response was finished (epoch ms, sub-ms precision). */
export type StubExaServed = { query: string; status: number; results: number; startedAt: number; endedAt: number }

export type StubExa = {
  /** Pass as exa-js's baseURL. */
  url: string
  /** Every request received, failed ones included, in order. */
  requests: StubExaRequest[]
  /** Every /search response sent, in the order they finished. */
  served: StubExaServed[]
  /**
   * How the next requests are answered: `times` of them get `behaviour`, then normal answers resume
   * (without `times`, every request until the next call). `retryAfterSeconds` goes with 'rate-limit'.
   */
  setBehaviour: (behaviour: StubExaBehaviour, options?: { times?: number; retryAfterSeconds?: number }) => void
  close: () => Promise<void>
}

export const STUB_EXA_API_KEY = 'exa-test-key'

const DEFAULT_DOCUMENTS: StubExaDocument[] = [
  {
    url: 'https://news.example.com/sodium-ion-grid',
    title: 'Sodium-ion cells reach grid storage',
    publishedDate: '2026-11-18T08:00:00.000Z',
    author: 'A. Writer',
    text: 'A utility switched on a sodium-ion battery for grid storage, citing lower cost per kWh than lithium iron phosphate.',
  },
  {
    url: 'https://blog.example.org/solid-state/2026/roadmap',
    title: null,
    publishedDate: '2026-09-02T00:00:00.000Z',
    text: 'Solid-state battery makers pushed their roadmap back a year.',
  },
]

export async function startStubExa(
  options: {
    documents?: StubExaDocument[]
    apiKey?: string
    /** Each answer waits this long before it is sent, as a real search takes time. */
    latencyMs?: number
    /** Each answer also waits for this (a test holding searches open until it lets them go). */
    gate?: () => Promise<void>
    /** Makes each query's results instead of matching `documents` (the benchmark's per-query pages). */
    results?: (body: StubExaSearchBody) => StubExaDocument[]
    /** What Exa says an "auto" search ran as: "neural" unless set. */
    resolvedSearchType?: 'neural' | 'keyword'
  } = {},
): Promise<StubExa> {
  const documents = options.documents ?? DEFAULT_DOCUMENTS
  const apiKey = options.apiKey ?? STUB_EXA_API_KEY
  const requests: StubExaRequest[] = []
  const served: StubExaServed[] = []
  let behaviour: StubExaBehaviour = 'answer'
  let remaining = Number.POSITIVE_INFINITY
  let retryAfterSeconds = 1

  function nextBehaviour(): StubExaBehaviour {
    if (remaining <= 0) return 'answer'
    remaining -= 1
    return behaviour
  }

  function sendJson(
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
  }

  const server = http.createServer(async (request, response) => {
    const startedAt = now()
    let raw = ''
    for await (const chunk of request) raw += chunk
    const path = new URL(request.url ?? '/', 'http://stub').pathname
    let body: StubExaSearchBody
    try {
      body = JSON.parse(raw) as StubExaSearchBody
    } catch {
      return sendJson(response, 400, {
        requestId: randomUUID(),
        error: 'Body is not JSON',
        tag: 'INVALID_REQUEST_BODY',
      })
    }
    const key = request.headers['x-api-key']
    requests.push({
      method: request.method ?? '',
      path,
      apiKey: typeof key === 'string' ? key : undefined,
      body,
      at: startedAt,
    })

    if (request.method !== 'POST' || path !== '/search') {
      return sendJson(response, 404, { requestId: randomUUID(), error: `No route ${request.method} ${path}` })
    }
    if (key !== apiKey) {
      return sendJson(response, 401, { requestId: randomUUID(), error: 'Invalid API key', tag: 'INVALID_API_KEY' })
    }
    switch (nextBehaviour()) {
      case 'hang':
        return // the socket stays open until close()
      case 'garbage':
        return response.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [{"url": "https://')
      case 'server-error':
        return sendJson(response, 500, {
          requestId: randomUUID(),
          error: 'Internal server error',
          tag: 'INTERNAL_ERROR',
        })
      case 'rate-limit':
        return sendJson(
          response,
          429,
          { requestId: randomUUID(), error: 'Rate limit exceeded', tag: 'RATE_LIMIT_EXCEEDED' },
          { 'retry-after': String(retryAfterSeconds) },
        )
      case 'empty':
        return sendJson(response, 200, {
          requestId: randomUUID(),
          resolvedSearchType: options.resolvedSearchType ?? 'neural',
          results: [],
        })
      case 'answer': {
        const body200 = answer(body)
        if (options.latencyMs) await sleep(options.latencyMs)
        await options.gate?.()
        response.once('finish', () =>
          served.push({
            query: body.query,
            status: 200,
            results: body200.results.length,
            startedAt,
            endedAt: now(),
          }),
        )
        return sendJson(response, 200, body200)
      }
    }
  })

  function matching(body: StubExaSearchBody) {
    const terms = (body.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length > 2)
    return documents
      .filter((document) => !body.startPublishedDate || (document.publishedDate ?? '') >= body.startPublishedDate)
      .map((document) => {
        const haystack = `${document.url} ${document.title ?? ''} ${document.text ?? ''}`.toLowerCase()
        return { document, score: terms.filter((term) => haystack.includes(term)).length / (terms.length || 1) }
      })
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
  }

  function answer(body: StubExaSearchBody) {
    const textOption = body.contents?.text
    const maxCharacters = typeof textOption === 'object' ? textOption.maxCharacters : undefined
    const ranked = options.results
      ? options.results(body).map((document, index) => ({ document, score: 1 - index / 100 }))
      : matching(body)
    const results = ranked.slice(0, body.numResults ?? 10).map(({ document, score }) => ({
      id: document.url,
      url: document.url,
      title: document.title,
      publishedDate: document.publishedDate,
      author: document.author ?? null,
      score,
      ...(textOption && document.text !== undefined ? { text: document.text.slice(0, maxCharacters) } : {}),
    }))
    // Exa's prices: $5 per 1000 searches, $1 per 1000 pages of text.
    const contents = textOption ? results.length * 0.001 : 0
    return {
      requestId: randomUUID(),
      resolvedSearchType: options.resolvedSearchType ?? 'neural',
      results,
      costDollars: { total: 0.005 + contents, search: { neural: 0.005 }, contents: { text: contents } },
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    served,
    setBehaviour(next, settings = {}) {
      behaviour = next
      remaining = settings.times ?? Number.POSITIVE_INFINITY
      retryAfterSeconds = settings.retryAfterSeconds ?? 1
    },
    close() {
      server.closeAllConnections() // including the ones left hanging on purpose
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

/** Wall-clock milliseconds with the monotonic clock's precision, comparable across the process. */
function now(): number {
  return performance.timeOrigin + performance.now()
}
