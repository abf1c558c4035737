// Stand-ins for the five keyless open sources on one HTTP server, each at its real path and in its
// real wire format: GDELT DOC 2.0 (`/api/v2/doc/doc`, JSON artlist), MediaWiki (`/w/api.php`,
// generator=search with extracts, formatversion 2), OpenAlex (`/works`, abstracts as inverted
// indexes), arXiv (`/api/query`, Atom) and HN Algolia (`/api/v1/search`). Each answers from its own
// list of documents with its own date filter, records every request (parameters and User-Agent),
// and fails on demand (429 with Retry-After, 500, or no answer at all).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  atomFeed,
  atomText,
  RATE_LIMIT_TEXT,
  RATE_LIMIT_TYPE,
  REFUSALS,
} from '#test/support/stub-open-sources-formats.ts'

export const OPEN_SOURCES = ['gdelt', 'wikipedia', 'openalex', 'arxiv', 'hackernews'] as const
export type OpenSourceName = (typeof OPEN_SOURCES)[number]

export type StubOpenDocument = {
  url: string
  title: string
  /** ISO datetime: when it was published (GDELT: first seen; arXiv: first version; HN: posted). */
  publishedDate: string
  /** The extract, abstract or story text; GDELT, which has none, sends only the title. */
  text: string
}

export type StubOpenRequest = {
  source: OpenSourceName
  path: string
  params: Record<string, string>
  userAgent: string
  /** When it arrived (epoch ms). */
  at: number
}

/**
 * 'slow-down-200' is GDELT's other way of saying 429: its notice as the body of a 200. 'refuse' is
 * each source's own answer to a query it will not run (arXiv and MediaWiki: with a 200).
 */
export type StubOpenBehaviour = 'answer' | 'rate-limit' | 'slow-down-200' | 'refuse' | 'server-error' | 'hang'

export type StubOpenSources = {
  url: string
  /** The five base-URL settings pointing at this stub. */
  env: Record<string, string>
  requests: StubOpenRequest[]
  /** Each source's live list: tests may change it between searches. */
  documents: Record<OpenSourceName, StubOpenDocument[]>
  /** The next `times` requests to `source` (every one, without `times`) get `behaviour`. */
  setBehaviour: (
    source: OpenSourceName,
    behaviour: StubOpenBehaviour,
    options?: { times?: number; retryAfterSeconds?: number },
  ) => void
  close: () => Promise<void>
}

const PATHS: Record<string, OpenSourceName> = {
  '/api/v2/doc/doc': 'gdelt',
  '/w/api.php': 'wikipedia',
  '/works': 'openalex',
  '/api/query': 'arxiv',
  '/api/v1/search': 'hackernews',
}

export async function startStubOpenSources(
  documents: Partial<Record<OpenSourceName, StubOpenDocument[]>> = {},
): Promise<StubOpenSources> {
  const lists = Object.fromEntries(OPEN_SOURCES.map((source) => [source, documents[source] ?? []])) as Record<
    OpenSourceName,
    StubOpenDocument[]
  >
  const requests: StubOpenRequest[] = []
  const behaviours = new Map<OpenSourceName, { behaviour: StubOpenBehaviour; remaining: number; retryAfter: number }>()

  function nextBehaviour(source: OpenSourceName) {
    const current = behaviours.get(source)
    if (!current || current.remaining <= 0) return { behaviour: 'answer' as const, retryAfter: 1 }
    current.remaining -= 1
    return current
  }

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub')
    const source = PATHS[url.pathname]
    if (!source) return send(response, 404, 'text/plain', `No route ${url.pathname}`)
    const params = Object.fromEntries(url.searchParams)
    requests.push({
      source,
      path: url.pathname,
      params,
      userAgent: request.headers['user-agent'] ?? '',
      at: Date.now(),
    })
    const { behaviour, retryAfter } = nextBehaviour(source)
    switch (behaviour) {
      case 'hang':
        return
      case 'server-error':
        return send(response, 500, 'text/html', '<html><body><h1>500 Internal Server Error</h1></body></html>')
      case 'slow-down-200':
        if (source === 'gdelt') return send(response, 200, 'text/html', RATE_LIMIT_TEXT.gdelt)
        return send(response, 429, 'text/plain', RATE_LIMIT_TEXT[source], { 'retry-after': String(retryAfter) })
      case 'refuse':
        return send(response, ...REFUSALS[source])
      case 'rate-limit':
        return send(response, 429, RATE_LIMIT_TYPE[source], RATE_LIMIT_TEXT[source], {
          'retry-after': String(retryAfter),
        })
      case 'answer': {
        const [type, body] = ANSWERS[source](params, lists[source])
        return send(response, 200, type, body)
      }
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}`
  return {
    url: base,
    env: {
      GDELT_BASE_URL: base,
      WIKIPEDIA_BASE_URL: base,
      OPENALEX_BASE_URL: base,
      ARXIV_BASE_URL: base,
      HN_SEARCH_BASE_URL: base,
    },
    requests,
    documents: lists,
    setBehaviour(source, behaviour, options = {}) {
      behaviours.set(source, {
        behaviour,
        remaining: options.times ?? Number.POSITIVE_INFINITY,
        retryAfter: options.retryAfterSeconds ?? 1,
      })
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
  }
}

function send(
  response: http.ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': type, ...headers }).end(body)
}

/** The words a query asks for, lower-case (quoted phrases and field prefixes taken apart). */
function termsOf(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (term) => term.length > 2 && !['all', 'and', 'submitteddate'].includes(term),
  )
}

/** Documents with any of the terms, the most terms first, on or after `from` (ISO). */
function matching(documents: StubOpenDocument[], query: string, from: string | undefined): StubOpenDocument[] {
  const terms = termsOf(query)
  return documents
    .filter((document) => !from || document.publishedDate >= from)
    .map((document) => {
      const haystack = `${document.title} ${document.text}`.toLowerCase()
      return { document, score: terms.filter((term) => haystack.includes(term)).length }
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ document }) => document)
}

/** `20260827081500` (GDELT, arXiv) as an ISO datetime, for comparing with documents' dates. */
function isoFromCompact(compact: string | undefined): string | undefined {
  const match = compact ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?/.exec(compact) : null
  return match ? `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6] ?? '00'}Z` : undefined
}

const JSON_TYPE = 'application/json; charset=utf-8'
type Answer = (params: Record<string, string>, documents: StubOpenDocument[]) => [string, string]

const ANSWERS: Record<OpenSourceName, Answer> = {
  gdelt(params, documents) {
    const found = matching(documents, params.query ?? '', isoFromCompact(params.startdatetime))
    const articles = found.slice(0, Number(params.maxrecords ?? 75)).map((document) => ({
      url: document.url,
      url_mobile: '',
      title: document.title,
      seendate: `${document.publishedDate.replace(/[-:]/g, '').replace(/\.\d+/, '').slice(0, 15)}Z`,
      socialimage: '',
      domain: new URL(document.url).hostname.replace(/^www\./, ''),
      language: 'English',
      sourcecountry: 'United States',
    }))
    // GDELT's answer when nothing matched is an empty object.
    return [JSON_TYPE, JSON.stringify(articles.length > 0 ? { articles } : {})]
  },
  wikipedia(params, documents) {
    const found = matching(documents, params.gsrsearch ?? '', undefined).slice(0, Number(params.gsrlimit ?? 10))
    if (found.length === 0) return [JSON_TYPE, JSON.stringify({ batchcomplete: true })]
    const pages = found.map((document, index) => ({
      pageid: 1000 + documents.indexOf(document),
      ns: 0,
      title: document.title,
      index: index + 1,
      extract: document.text,
      contentmodel: 'wikitext',
      pagelanguage: 'en',
      pagelanguagehtmlcode: 'en',
      pagelanguagedir: 'ltr',
      touched: document.publishedDate,
      lastrevid: 120_000_000 + index,
      length: document.text.length * 12,
      fullurl: document.url,
      editurl: `${document.url}?action=edit`,
      canonicalurl: document.url,
    }))
    // MediaWiki lists generator pages by page id; `index` is the search rank.
    pages.sort((a, b) => b.pageid - a.pageid)
    const body = {
      batchcomplete: true,
      continue: { gsroffset: found.length, continue: 'gsroffset||' },
      query: { pages },
    }
    return [JSON_TYPE, JSON.stringify(body)]
  },
  openalex(params, documents) {
    const from = /from_publication_date:(\d{4}-\d{2}-\d{2})/.exec(params.filter ?? '')?.[1]
    const found = matching(documents, params.search ?? '', from).slice(0, Number(params.per_page ?? 25))
    const results = found.map((document, index) => ({
      id: `https://openalex.org/W${4_300_000_000 + index}`,
      doi: `https://doi.org/10.5555/stub.${index}`,
      display_name: document.title,
      publication_date: document.publishedDate.slice(0, 10),
      abstract_inverted_index: invertedIndex(document.text),
      primary_location: { is_oa: true, landing_page_url: document.url, pdf_url: null, source: null },
    }))
    const meta = { count: found.length, db_response_time_ms: 14, page: 1, per_page: results.length, groups_count: null }
    return [JSON_TYPE, JSON.stringify({ meta, results, group_by: [] })]
  },
  arxiv(params, documents) {
    const query = params.search_query ?? ''
    const range = /submittedDate:\[(\d{12}) TO (\d{12})\]/.exec(query)
    const found = matching(documents, query.replace(/submittedDate:\[[^\]]*\]/, ''), isoFromCompact(range?.[1])).slice(
      0,
      Number(params.max_results ?? 10),
    )
    return ['application/atom+xml; charset=utf-8', atomFeed(query, found)]
  },
  hackernews(params, documents) {
    const after = /created_at_i>=?(\d+)/.exec(params.numericFilters ?? '')?.[1]
    const from = after ? new Date(Number(after) * 1000).toISOString() : undefined
    const found = matching(documents, params.query ?? '', from).slice(0, Number(params.hitsPerPage ?? 20))
    const hits = found.map((document, index) => {
      const id = String(41_000_000 + index)
      const discussion = document.url.startsWith('https://news.ycombinator.com/')
      return {
        _highlightResult: { title: { value: atomText(document.title), matchLevel: 'full', matchedWords: [] } },
        _tags: ['story', 'author_stub', `story_${id}`],
        author: 'stub',
        children: [],
        created_at: document.publishedDate,
        created_at_i: Math.floor(Date.parse(document.publishedDate) / 1000),
        num_comments: 12,
        objectID: id,
        points: 140,
        story_id: Number(id),
        title: document.title,
        updated_at: document.publishedDate,
        // A discussion-only post has no url and carries its text (the document's, as HTML).
        ...(discussion ? { story_text: document.text } : { url: document.url }),
      }
    })
    const body = {
      exhaustive: { nbHits: true, typo: true },
      hits,
      hitsPerPage: Number(params.hitsPerPage ?? 20),
      nbHits: hits.length,
      nbPages: 1,
      page: 0,
      params: new URLSearchParams(params).toString(),
      processingTimeMS: 2,
      query: params.query ?? '',
    }
    return [JSON_TYPE, JSON.stringify(body)]
  },
}

/** OpenAlex's shape for an abstract: each word and the positions it stands at. */
function invertedIndex(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {}
  text.split(/\s+/).forEach((word, position) => {
    if (!word) return
    if (!Object.hasOwn(index, word)) index[word] = []
    index[word]?.push(position)
  })
  return index
}
