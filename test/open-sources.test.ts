// Each keyless open source through its real wire format (test/support/stub-open-sources.ts): what
// it is asked (its own parameters, its own date filter, our User-Agent), what it answers, and how
// it refuses or asks us to slow down.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createArxivSearch } from '#server/providers/search/arxiv.ts'
import { createGdeltSearch } from '#server/providers/search/gdelt.ts'
import { createHackerNewsSearch } from '#server/providers/search/hackernews.ts'
import { createOpenAlexSearch } from '#server/providers/search/openalex.ts'
import type { OpenSourceOptions } from '#server/providers/search/source-client.ts'
import { createWikipediaSearch } from '#server/providers/search/wikipedia.ts'
import { ProviderError, type SearchProvider } from '#server/providers/types.ts'
import { type OpenSourceName, type StubOpenSources, startStubOpenSources } from '#test/support/stub-open-sources.ts'

const USER_AGENT = 'Sextant/1.0 (+https://sextant.test; ops@sextant.test)'
const noDeadline = () => ({ signal: new AbortController().signal })
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
const dateOf = (iso: string) => iso.slice(0, 10)

let stub: StubOpenSources
beforeAll(async () => {
  stub = await startStubOpenSources()
})
afterAll(() => stub.close())

/** Each adapter on the stub, unpaced (pacing has its own test below). */
function sources(overrides: Partial<OpenSourceOptions> = {}): Record<OpenSourceName, SearchProvider> {
  const options = { baseUrl: stub.url, userAgent: USER_AGENT, timeoutMs: 5000, minIntervalMs: 0, ...overrides }
  return {
    gdelt: createGdeltSearch(options),
    wikipedia: createWikipediaSearch(options),
    openalex: createOpenAlexSearch({ ...options, mailto: 'ops@sextant.test', apiKey: 'oa-key' }),
    arxiv: createArxivSearch(options),
    hackernews: createHackerNewsSearch(options),
  }
}

function requestsTo(source: OpenSourceName) {
  return stub.requests.filter((request) => request.source === source)
}

test('GDELT: asks artlist JSON for the keywords from the start date, and maps articles to snippet-only results', async () => {
  const seen = daysAgo(3)
  stub.documents.gdelt = [
    {
      url: 'https://news.example/sodium-plant',
      title: 'Sodium-ion plant opens in Ohio',
      publishedDate: seen,
      text: '',
    },
    { url: 'https://news.example/old-sodium', title: 'Sodium-ion pilot', publishedDate: daysAgo(40), text: '' },
  ]
  const start = dateOf(daysAgo(10))
  const response = await sources().gdelt.search(
    { text: 'sodium-ion battery costs in 2026', startPublishedDate: start, numResults: 5, maxCharacters: 500 },
    noDeadline(),
  )
  const [request] = requestsTo('gdelt').slice(-1)
  expect(request?.userAgent).toBe(USER_AGENT)
  expect(request?.params).toMatchObject({
    query: '"sodium ion" battery costs 2026',
    mode: 'artlist',
    format: 'json',
    maxrecords: '5',
    startdatetime: `${start.replaceAll('-', '')}000000`,
  })
  expect(request?.params.enddatetime).toMatch(/^\d{14}$/)
  expect(response.results).toEqual([
    {
      url: 'https://news.example/sodium-plant',
      title: 'Sodium-ion plant opens in Ohio',
      publishedDate: `${seen.slice(0, 19)}Z`,
      text: 'Sodium-ion plant opens in Ohio',
      snippetOnly: true,
      foundBy: 'GDELT',
    },
  ])
  // Nothing matched: GDELT answers `{}`.
  const none = await sources().gdelt.search({ text: 'zeppelin', numResults: 5, maxCharacters: 500 }, noDeadline())
  expect(none.results).toEqual([])
})

test('GDELT: a start date older than its 3-month window asks for the window; a refusal is a clear error', async () => {
  const gdelt = sources().gdelt
  await gdelt.search(
    { text: 'grid storage', startPublishedDate: '2020-01-01', numResults: 3, maxCharacters: 500 },
    noDeadline(),
  )
  const start = requestsTo('gdelt').at(-1)?.params.startdatetime ?? ''
  expect(start.slice(0, 8) >= dateOf(daysAgo(91)).replaceAll('-', '')).toBe(true)

  stub.setBehaviour('gdelt', 'refuse', { times: 1 })
  const before = requestsTo('gdelt').length
  const failure = await gdelt
    .search({ text: 'grid storage', numResults: 3, maxCharacters: 500 }, noDeadline())
    .catch((e) => e)
  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure.message).toBe('GDELT refused the query: The specified phrase is too short.')
  expect(requestsTo('gdelt').length - before).toBe(1) // not retried
})

test('GDELT: its "limit requests" notice under a 200 is a rate limit, retried after the interval', async () => {
  stub.documents.gdelt = [
    { url: 'https://news.example/grid', title: 'Grid storage doubles', publishedDate: daysAgo(1), text: '' },
  ]
  stub.setBehaviour('gdelt', 'slow-down-200', { times: 1 })
  const before = requestsTo('gdelt').length
  const started = performance.now()
  const response = await sources({ minIntervalMs: 500 }).gdelt.search(
    { text: 'grid storage', numResults: 3, maxCharacters: 500 },
    noDeadline(),
  )
  expect(response.results.map((result) => result.url)).toEqual(['https://news.example/grid'])
  expect(requestsTo('gdelt').length - before).toBe(2)
  expect(performance.now() - started).toBeGreaterThanOrEqual(450)
})

test('GDELT: searches start at least 5 s apart, its documented courtesy', async () => {
  const gdelt = createGdeltSearch({ baseUrl: stub.url, userAgent: USER_AGENT, timeoutMs: 20_000 })
  const query = { text: 'grid storage', numResults: 3, maxCharacters: 500 }
  const before = requestsTo('gdelt').length
  await Promise.all([gdelt.search(query, noDeadline()), gdelt.search(query, noDeadline())])
  const [first, second] = requestsTo('gdelt').slice(before)
  // Measured where GDELT would: when the requests arrive.
  expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(4900)
})

test('Wikipedia: one generator=search request with lead extracts and URLs, in search order, clipped; no date filter', async () => {
  stub.documents.wikipedia = [
    {
      url: 'https://en.wikipedia.org/wiki/Grid_energy_storage',
      title: 'Grid energy storage',
      publishedDate: daysAgo(900),
      text: `Grid energy storage is a collection of methods used for energy storage on a large scale within an electrical power grid. ${'More. '.repeat(100)}`,
    },
    {
      url: 'https://en.wikipedia.org/wiki/Sodium-ion_battery',
      title: 'Sodium-ion battery',
      publishedDate: daysAgo(2000),
      text: 'A sodium-ion battery is a rechargeable battery that uses sodium ions as charge carriers for grid storage.',
    },
  ]
  const response = await sources().wikipedia.search(
    { text: 'sodium-ion grid storage', startPublishedDate: dateOf(daysAgo(30)), numResults: 4, maxCharacters: 120 },
    noDeadline(),
  )
  const request = requestsTo('wikipedia').at(-1)
  expect(request?.userAgent).toBe(USER_AGENT)
  expect(request?.params).toEqual({
    action: 'query',
    format: 'json',
    formatversion: '2',
    generator: 'search',
    gsrsearch: 'sodium-ion grid storage',
    gsrnamespace: '0',
    gsrlimit: '4',
    prop: 'extracts|info',
    exintro: '1',
    explaintext: '1',
    exlimit: '4',
    inprop: 'url',
  })
  // The stub lists pages by id, as MediaWiki does; the search's own order is `index`.
  expect(response.results.map((result) => result.title)).toEqual(['Sodium-ion battery', 'Grid energy storage'])
  expect(response.results[0]).toEqual({
    url: 'https://en.wikipedia.org/wiki/Sodium-ion_battery',
    title: 'Sodium-ion battery',
    publishedDate: null,
    text: 'A sodium-ion battery is a rechargeable battery that uses sodium ions as charge carriers for grid storage.',
    snippetOnly: true,
    foundBy: 'Wikipedia',
  })
  expect(response.results[1]?.text).toHaveLength(120)
})

test('Wikipedia: nothing found is no results; an API error is a ProviderError with its code', async () => {
  const wikipedia = sources().wikipedia
  expect(
    (await wikipedia.search({ text: 'zeppelin', numResults: 3, maxCharacters: 200 }, noDeadline())).results,
  ).toEqual([])
  stub.setBehaviour('wikipedia', 'refuse', { times: 1 })
  await expect(wikipedia.search({ text: 'grid', numResults: 3, maxCharacters: 200 }, noDeadline())).rejects.toThrow(
    /^Wikipedia refused the search \(invalidparammix\)/,
  )
})

test('OpenAlex: search with the date filter, select, mailto and key; the abstract rebuilt in order', async () => {
  stub.documents.openalex = [
    {
      url: 'https://doi.example/10.1/sodium',
      title: 'Sodium-ion cathodes at scale',
      publishedDate: daysAgo(5),
      text: 'We report a layered oxide cathode for sodium-ion cells that retains 90% of capacity after 3000 cycles.',
    },
    {
      url: 'http://arxiv.org/abs/2609.01234v2',
      title: 'Sodium-ion anodes from hard carbon',
      publishedDate: daysAgo(8),
      text: 'Hard carbon anodes for sodium-ion storage reach 300 mAh/g.',
    },
    {
      url: 'https://doi.example/10.1/old',
      title: 'Early sodium-ion work',
      publishedDate: daysAgo(400),
      text: 'Sodium-ion cells were studied.',
    },
  ]
  const start = dateOf(daysAgo(30))
  const response = await sources().openalex.search(
    { text: 'sodium-ion cathodes', startPublishedDate: start, numResults: 5, maxCharacters: 500 },
    noDeadline(),
  )
  const request = requestsTo('openalex').at(-1)
  expect(request?.userAgent).toBe(USER_AGENT)
  expect(request?.params).toEqual({
    search: 'sodium-ion cathodes',
    per_page: '5',
    select: 'id,doi,display_name,publication_date,abstract_inverted_index,primary_location',
    filter: `from_publication_date:${start}`,
    mailto: 'ops@sextant.test',
    api_key: 'oa-key',
  })
  expect(response.results).toEqual([
    {
      url: 'https://doi.example/10.1/sodium',
      title: 'Sodium-ion cathodes at scale',
      publishedDate: dateOf(daysAgo(5)),
      text: 'We report a layered oxide cathode for sodium-ion cells that retains 90% of capacity after 3000 cycles.',
      snippetOnly: true,
      foundBy: 'OpenAlex',
    },
    // An arXiv landing page is named as arXiv names it, so the same preprint from arXiv is one page.
    expect.objectContaining({
      url: 'https://arxiv.org/abs/2609.01234',
      text: 'Hard carbon anodes for sodium-ion storage reach 300 mAh/g.',
    }),
  ])
})

test('OpenAlex: a 400 is not retried and says what OpenAlex said', async () => {
  stub.setBehaviour('openalex', 'refuse', { times: 1 })
  const before = requestsTo('openalex').length
  await expect(
    sources().openalex.search({ text: 'cathodes', numResults: 3, maxCharacters: 200 }, noDeadline()),
  ).rejects.toThrow(/^OpenAlex failed \(HTTP 400\): .*from_publication_date is not a valid date/)
  expect(requestsTo('openalex').length - before).toBe(1)
})

test('arXiv: all: terms AND the submittedDate range, newest first; Atom entries become abstract pages', async () => {
  const published = daysAgo(4)
  stub.documents.arxiv = [
    {
      url: 'https://arxiv.org/abs/2609.04567',
      title: 'Solid electrolytes for sodium-ion batteries: a survey of interphase stability',
      publishedDate: published,
      text: 'We survey solid electrolytes for sodium-ion batteries & compare <five> interphases.',
    },
  ]
  const start = dateOf(daysAgo(30))
  const response = await sources().arxiv.search(
    { text: 'sodium-ion solid electrolytes', startPublishedDate: start, numResults: 3, maxCharacters: 500 },
    noDeadline(),
  )
  const request = requestsTo('arxiv').at(-1)
  expect(request?.userAgent).toBe(USER_AGENT)
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '')
  expect(request?.params).toEqual({
    search_query: `all:"sodium ion" AND all:solid AND all:electrolytes AND submittedDate:[${start.replaceAll('-', '')}0000 TO ${today}2359]`,
    start: '0',
    max_results: '3',
    sortBy: 'submittedDate',
    sortOrder: 'descending',
  })
  expect(response.results).toEqual([
    {
      url: 'https://arxiv.org/abs/2609.04567',
      title: 'Solid electrolytes for sodium-ion batteries: a survey of interphase stability',
      publishedDate: published.replace(/\.\d+Z$/, 'Z'),
      text: 'We survey solid electrolytes for sodium-ion batteries & compare <five> interphases.',
      foundBy: 'arXiv',
    },
  ])
})

test('arXiv: without a date, by relevance; its error entry (with a 200) is a ProviderError', async () => {
  const arxiv = sources().arxiv
  await arxiv.search({ text: 'electrolytes', numResults: 3, maxCharacters: 200 }, noDeadline())
  expect(requestsTo('arxiv').at(-1)?.params).toMatchObject({ search_query: 'all:electrolytes', sortBy: 'relevance' })
  stub.setBehaviour('arxiv', 'refuse', { times: 1 })
  await expect(arxiv.search({ text: 'electrolytes', numResults: 3, maxCharacters: 200 }, noDeadline())).rejects.toThrow(
    'arXiv refused the query: incorrect value for max_results',
  )
})

test('Hacker News: stories since the start date; a link keeps its URL, a text post its discussion and text', async () => {
  stub.documents.hackernews = [
    {
      url: 'https://blog.example.com/sodium-ion-teardown',
      title: 'Sodium-ion battery teardown',
      publishedDate: daysAgo(2),
      text: '',
    },
    {
      url: 'https://news.ycombinator.com/',
      title: 'Ask HN: Anyone running sodium-ion storage at home?',
      publishedDate: daysAgo(3),
      text: 'We installed a <b>sodium-ion</b> pack &amp; it works in the cold.',
    },
  ]
  const start = dateOf(daysAgo(7))
  const response = await sources().hackernews.search(
    { text: 'sodium-ion storage', startPublishedDate: start, numResults: 5, maxCharacters: 500 },
    noDeadline(),
  )
  const request = requestsTo('hackernews').at(-1)
  expect(request?.userAgent).toBe(USER_AGENT)
  expect(request?.params).toEqual({
    query: 'sodium-ion storage',
    tags: 'story',
    hitsPerPage: '5',
    numericFilters: `created_at_i>=${Date.parse(`${start}T00:00:00Z`) / 1000}`,
  })
  expect(response.results.map(({ url, text, foundBy, snippetOnly }) => ({ url, text, foundBy, snippetOnly }))).toEqual([
    {
      url: 'https://news.ycombinator.com/item?id=41000000',
      text: 'Ask HN: Anyone running sodium-ion storage at home? We installed a sodium-ion pack & it works in the cold.',
      foundBy: 'Hacker News',
      snippetOnly: true,
    },
    {
      url: 'https://blog.example.com/sodium-ion-teardown',
      text: 'Sodium-ion battery teardown',
      foundBy: 'Hacker News',
      snippetOnly: true,
    },
  ])
})

for (const source of ['gdelt', 'wikipedia', 'openalex', 'arxiv', 'hackernews'] as const) {
  test(`${source}: a 429 is waited out as its Retry-After says, and a pause too long to wait fails at once`, async () => {
    stub.documents[source] = [
      {
        url: `https://${source}.example/grid`,
        title: 'Grid storage report',
        publishedDate: daysAgo(1),
        text: 'Grid storage grew.',
      },
    ]
    const adapter = sources()[source]
    const query = { text: 'grid storage', numResults: 3, maxCharacters: 200 }
    stub.setBehaviour(source, 'rate-limit', { times: 1, retryAfterSeconds: 1 })
    const before = requestsTo(source).length
    const started = performance.now()
    const response = await adapter.search(query, noDeadline())
    expect(response.results.length).toBeGreaterThan(0)
    expect(requestsTo(source).length - before).toBe(2)
    expect(performance.now() - started).toBeGreaterThanOrEqual(950)

    stub.setBehaviour(source, 'rate-limit', { times: 1, retryAfterSeconds: 3600 })
    const failure = await adapter.search(query, noDeadline()).catch((error) => error)
    expect(failure).toBeInstanceOf(ProviderError)
    expect(failure).toMatchObject({ status: 429, retryable: false })
    expect(failure.message).toContain('asks for a pause of 3600 s')
    expect(requestsTo(source).length - before).toBe(3)
  })
}
