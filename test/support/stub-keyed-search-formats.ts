// The answers of stub-keyed-search.ts in each provider's wire format: Tavily's search JSON (snake_case,
// `published_date` as an HTTP date, `raw_content` when asked for), Brave's web search JSON
// (`web.results[]`, descriptions with <strong>, `page_age` and `age`), SearXNG's JSON format
// (`results[]` with `engines` and `publishedDate`, `unresponsive_engines`), and each one's failures.

export type StubSearchDocument = {
  url: string
  title: string
  /** ISO datetime, or null when the provider does not know. */
  publishedDate: string | null
  /** The provider's snippet: Tavily's `content`, Brave's `description`, SearXNG's `content`. */
  snippet: string
  /** The page's text: Tavily sends it as `raw_content` when asked for it; absent, `raw_content` is null. */
  pageText?: string
  /** SearXNG: the engines that found it (default: duckduckgo and brave). */
  engines?: string[]
}

/** Status, content type, body and headers. */
export type StubAnswer = [number, string, string, Record<string, string>?]

export type StubContext = {
  params: URLSearchParams
  body: unknown
  documents: StubSearchDocument[]
  retryAfterSeconds: number | undefined
}

/** What stub-keyed-search.ts asks for ('slow' and 'hang' are its own doing). */
type Behaviour =
  | 'answer'
  | 'rate-limit'
  | 'refuse-key'
  | 'quota'
  | 'server-error'
  | 'garbage'
  | 'engines-failing'
  | 'slow'
  | 'hang'

const JSON_TYPE = 'application/json'
const json = (status: number, body: unknown, headers: Record<string, string> = {}): StubAnswer => [
  status,
  JSON_TYPE,
  JSON.stringify(body),
  headers,
]
const retryAfter = (context: StubContext): Record<string, string> =>
  context.retryAfterSeconds === undefined ? {} : { 'retry-after': String(context.retryAfterSeconds) }

export function tavilyAnswer(behaviour: Behaviour, context: StubContext): StubAnswer {
  const detail = (error: string) => ({ detail: { error } })
  switch (behaviour) {
    case 'rate-limit':
      return json(
        429,
        detail('Your request has been blocked due to excessive requests. Please reduce rate of requests.'),
        retryAfter(context),
      )
    case 'refuse-key':
      return json(401, detail('Unauthorized: missing or invalid API key.'))
    case 'quota':
      return json(
        432,
        detail(
          "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
        ),
      )
    case 'server-error':
      return [500, 'text/plain; charset=utf-8', 'Internal Server Error']
    case 'garbage':
      return [200, JSON_TYPE, '{"query": "sodium", "results": [{"url": "https://']
  }
  const body = (context.body ?? {}) as {
    query?: string
    max_results?: number
    include_raw_content?: boolean | string
    start_date?: string
  }
  const found = matching(context.documents, body.query ?? '', body.start_date).slice(0, body.max_results ?? 5)
  return json(200, {
    query: body.query,
    follow_up_questions: null,
    answer: null,
    images: [],
    results: found.map((document, index) => ({
      url: document.url,
      title: document.title,
      content: document.snippet,
      score: 0.9 - index / 100,
      raw_content: body.include_raw_content ? (document.pageText ?? null) : null,
      ...(document.publishedDate ? { published_date: new Date(document.publishedDate).toUTCString() } : {}),
    })),
    response_time: 0.84,
    request_id: '5b0a6c1e-9d3f-4e8a-b1c2-7f6e5d4c3b2a',
  })
}

export function braveAnswer(behaviour: Behaviour, context: StubContext): StubAnswer {
  const error = (status: number, code: string, detail: string) => ({
    type: 'ErrorResponse',
    error: { id: '7d1e2f3a-4b5c-6d7e-8f90-a1b2c3d4e5f6', status, code, detail, meta: {} },
    time: Math.floor(Date.now() / 1000),
  })
  // Brave's windows: the second and the month.
  const limits = (remaining: string) => ({
    'x-ratelimit-limit': '1, 15000',
    'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
    'x-ratelimit-remaining': remaining,
    'x-ratelimit-reset': '1, 1419704',
  })
  switch (behaviour) {
    case 'rate-limit':
      return json(429, error(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.'), {
        ...limits('0, 14000'),
        ...retryAfter(context),
      })
    case 'quota':
      return json(429, error(429, 'QUOTA_LIMITED', 'Request quota limit exceeded for plan.'), limits('1, 0'))
    case 'refuse-key':
      return json(401, error(401, 'UNAUTHORIZED', 'The request could not be authorized.'))
    case 'server-error':
      return json(500, error(500, 'INTERNAL_ERROR', 'Internal server error.'))
    case 'garbage':
      return [200, JSON_TYPE, '{"type": "search", "web": {"results": [{"url": "https://']
  }
  const q = context.params.get('q') ?? ''
  const range = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/.exec(context.params.get('freshness') ?? '')
  const found = matching(context.documents, q, range?.[1])
    .filter((document) => !range || (document.publishedDate ?? '').slice(0, 10) <= (range[2] as string))
    .slice(0, Number(context.params.get('count') ?? 20))
  const results = found.map((document) => ({
    type: 'search_result',
    title: document.title,
    url: document.url,
    is_source_local: false,
    is_source_both: false,
    description: emphasise(document.snippet, q),
    ...(document.publishedDate
      ? { page_age: document.publishedDate.replace(/(\.\d+)?Z$/, ''), age: longDate(document.publishedDate) }
      : {}),
    language: 'en',
    family_friendly: true,
    meta_url: { scheme: 'https', netloc: new URL(document.url).hostname, path: new URL(document.url).pathname },
  }))
  return json(200, {
    type: 'search',
    query: {
      original: q,
      show_strict_warning: false,
      is_navigational: false,
      country: 'us',
      more_results_available: false,
    },
    mixed: { type: 'mixed', main: results.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
    // Brave leaves `web` out when nothing matched.
    ...(results.length > 0 ? { web: { type: 'search', results, family_friendly: true } } : {}),
  })
}

export function searxngAnswer(behaviour: Behaviour, context: StubContext): StubAnswer {
  switch (behaviour) {
    // The limiter's answer: a bare 429, no Retry-After unless the test asks for one.
    case 'rate-limit':
      return [429, 'text/plain; charset=utf-8', 'Too Many Requests', retryAfter(context)]
    case 'server-error':
      return [500, 'text/html; charset=utf-8', '<!doctype html><title>500 Internal Server Error</title>']
    case 'garbage':
      return [200, JSON_TYPE, '{"query": "sodium", "results": [{"url": "https://']
  }
  const q = context.params.get('q') ?? ''
  if (context.params.get('format') !== 'json')
    return [200, 'text/html; charset=utf-8', `<html><body>${q}</body></html>`]
  // Engines read time_range loosely: the stub keeps what is newer than the range's whole reach.
  const reach = { day: 1, week: 7, month: 31, year: 366 }[context.params.get('time_range') ?? ''] as number | undefined
  const since = reach ? new Date(Date.now() - reach * 86_400_000).toISOString() : undefined
  const found = matching(context.documents, q, since, { keepUndated: true })
  const results = found.map((document, index) => {
    const engines = document.engines ?? ['duckduckgo', 'brave']
    return {
      url: document.url,
      title: document.title,
      content: document.snippet,
      publishedDate: document.publishedDate?.replace(/(\.\d+)?Z$/, '') ?? null,
      thumbnail: '',
      engine: engines[0],
      template: 'default.html',
      parsed_url: ['https', new URL(document.url).hostname, new URL(document.url).pathname, '', '', ''],
      engines,
      positions: [index + 1],
      score: engines.length / (index + 1),
      category: 'general',
    }
  })
  return json(200, {
    query: q,
    number_of_results: 0,
    results,
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: behaviour === 'engines-failing' ? [['google', 'CAPTCHA']] : [],
  })
}

/** Documents with any of the query's words, the most first, published on or after `from` (ISO). */
function matching(
  documents: StubSearchDocument[],
  query: string,
  from: string | undefined,
  options: { keepUndated?: boolean } = {},
): StubSearchDocument[] {
  const terms = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length > 2)
  return documents
    .filter((document) =>
      document.publishedDate === null ? !from || options.keepUndated : !from || document.publishedDate >= from,
    )
    .map((document) => {
      const haystack = `${document.url} ${document.title} ${document.snippet}`.toLowerCase()
      return { document, score: terms.filter((term) => haystack.includes(term)).length }
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ document }) => document)
}

/** Brave's emphasis: the query's words in <strong>, and its entities. */
function emphasise(text: string, query: string): string {
  const terms = (query.match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length > 2)
  const escaped = text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')
  if (terms.length === 0) return escaped
  return escaped.replace(new RegExp(`\\b(${terms.join('|')})\\b`, 'giu'), '<strong>$1</strong>')
}

/** "January 15, 2026", as Brave's `age` gives an older page's date. */
function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}
