// The `open` provider over the five stubbed sources: results merged by canonical URL and taken from
// each source in turn, each saying who found it; a source that fails or hangs is a notice; every
// source unreachable is an offline machine, and the local corpus answers instead, labelled.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createOpenSources, createProviders } from '#server/providers/index.ts'
import { createArxivSearch } from '#server/providers/search/arxiv.ts'
import { createGdeltSearch } from '#server/providers/search/gdelt.ts'
import { createHackerNewsSearch } from '#server/providers/search/hackernews.ts'
import { createOpenSearch, OFFLINE_FALLBACK_LABEL } from '#server/providers/search/open.ts'
import { createOpenAlexSearch } from '#server/providers/search/openalex.ts'
import { ensureSampleCorpus } from '#server/providers/search/sample-corpus.ts'
import { SourceUnreachableError } from '#server/providers/search/source-client.ts'
import { createWikipediaSearch } from '#server/providers/search/wikipedia.ts'
import { ProviderError, SearchOfflineError } from '#server/providers/types.ts'
import { closedPort, unreachableOpenSources } from '#test/support/closed-port.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { type StubOpenSources, startStubOpenSources } from '#test/support/stub-open-sources.ts'

const noDeadline = () => ({ signal: new AbortController().signal })
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
const query = { text: 'sodium-ion storage', numResults: 5, maxCharacters: 300 }

let stub: StubOpenSources
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
  await ensureSampleCorpus(database.db, testLogger())
  stub = await startStubOpenSources({
    gdelt: [
      {
        url: 'https://news.example/sodium?utm_source=gdelt',
        title: 'Sodium-ion storage plant opens',
        publishedDate: daysAgo(1),
        text: '',
      },
      {
        url: 'https://news.example/sodium-prices',
        title: 'Sodium-ion storage prices fall',
        publishedDate: daysAgo(2),
        text: '',
      },
    ],
    wikipedia: [
      {
        url: 'https://en.wikipedia.org/wiki/Sodium-ion_battery',
        title: 'Sodium-ion battery',
        publishedDate: daysAgo(500),
        text: 'A sodium-ion battery is a rechargeable battery used for storage.',
      },
    ],
    openalex: [
      {
        url: 'http://arxiv.org/abs/2609.01234v2',
        title: 'Hard carbon for sodium-ion storage',
        publishedDate: daysAgo(6),
        text: 'Hard carbon anodes for sodium-ion storage reach 300 mAh/g.',
      },
    ],
    arxiv: [
      {
        url: 'https://arxiv.org/abs/2609.01234',
        title: 'Hard carbon for sodium-ion storage',
        publishedDate: daysAgo(6),
        text: 'Hard carbon anodes for sodium-ion storage reach 300 mAh/g.',
      },
    ],
    hackernews: [
      {
        url: 'https://news.example/sodium',
        title: 'Sodium-ion storage plant opens (news.example)',
        publishedDate: daysAgo(1),
        text: '',
      },
      {
        url: 'https://blog.example/sodium-at-home',
        title: 'Sodium-ion storage at home',
        publishedDate: daysAgo(3),
        text: '',
      },
    ],
  })
})
afterAll(async () => {
  await stub.close()
  await database.drop()
})

function openOnStub(timeoutMs = 5000) {
  const options = { baseUrl: stub.url, userAgent: 'Sextant/1.0 (+https://sextant.test)', timeoutMs, minIntervalMs: 0 }
  return createOpenSearch({
    sources: [
      createGdeltSearch(options),
      createWikipediaSearch(options),
      createOpenAlexSearch(options),
      createArxivSearch(options),
      createHackerNewsSearch(options),
    ],
    timeoutMs,
  })
}

test('results are taken from each source in turn, merged by canonical URL, each saying who found it', async () => {
  const open = openOnStub()
  expect(open.name).toBe('open sources (GDELT, Wikipedia, OpenAlex, arXiv, Hacker News)')
  const response = await open.search(query, noDeadline())
  expect(response.notices).toBeUndefined()
  expect(response.results.map(({ url, foundBy, snippetOnly }) => ({ url, foundBy, snippetOnly }))).toEqual([
    // Turn one: each source's first. arXiv's first is OpenAlex's, Hacker News's first is GDELT's
    // (without the tracking parameter): each is kept once and names both sources.
    { url: 'https://news.example/sodium?utm_source=gdelt', foundBy: 'GDELT + Hacker News', snippetOnly: true },
    { url: 'https://en.wikipedia.org/wiki/Sodium-ion_battery', foundBy: 'Wikipedia', snippetOnly: true },
    { url: 'https://arxiv.org/abs/2609.01234', foundBy: 'OpenAlex + arXiv', snippetOnly: true },
    // Turn two.
    { url: 'https://news.example/sodium-prices', foundBy: 'GDELT', snippetOnly: true },
    { url: 'https://blog.example/sodium-at-home', foundBy: 'Hacker News', snippetOnly: true },
  ])
  // Fewer wanted: the first turn's, still merged.
  const three = await open.search({ ...query, numResults: 3 }, noDeadline())
  expect(three.results.map((result) => result.foundBy)).toEqual([
    'GDELT + Hacker News',
    'Wikipedia',
    'OpenAlex + arXiv',
  ])
})

test('a source that fails and one that hangs are notices; the others still answer', async () => {
  stub.setBehaviour('wikipedia', 'server-error')
  stub.setBehaviour('hackernews', 'hang')
  try {
    const response = await openOnStub(4000).search(query, noDeadline())
    expect(new Set(response.results.map((result) => result.foundBy))).toEqual(new Set(['GDELT', 'OpenAlex + arXiv']))
    expect(response.notices).toHaveLength(2)
    expect(response.notices?.[0]).toMatchObject({ code: 'source_failed' })
    expect(response.notices?.[0]?.message).toMatch(/^Wikipedia failed, and the search went on without it: Wikipedia/)
    expect(response.notices?.[1]?.message).toBe(
      'Hacker News failed, and the search went on without it: Hacker News did not answer within 4 s.',
    )
  } finally {
    stub.setBehaviour('wikipedia', 'answer')
    stub.setBehaviour('hackernews', 'answer')
  }
})

test('every source refused a connection: offline, and the local corpus answers instead, labelled', async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    OLLAMA_BASE_URL: 'none',
    PROVIDER_TIMEOUT_SECONDS: '10',
    ...(await unreachableOpenSources()),
  })
  expect(config.SEARCH_PROVIDER).toBe('open')
  const open = createOpenSearch({ sources: createOpenSources(config, 10_000), timeoutMs: 10_000 })
  const failure = await open.search(query, noDeadline()).catch((error) => error)
  expect(failure).toBeInstanceOf(SearchOfflineError)
  expect(failure.offline).toBe(true)
  expect(failure.message).toMatch(/^No open source could be reached, so this machine looks offline\. /)
  expect(failure.message).toContain('Could not reach GDELT')
  expect(failure.message).toContain('(ECONNREFUSED)')

  // The app's provider: the open sources with the corpus behind them. The second search does not
  // wait for GDELT's 5 s or arXiv's 3 s: a refused connection cost those servers nothing.
  const search = (await createProviders(config, database.db, testLogger())).search
  for (let round = 0; round < 2; round++) {
    const started = performance.now()
    const response = await search.search({ ...query, text: 'sodium-ion batteries' }, noDeadline())
    expect(performance.now() - started).toBeLessThan(4000) // GDELT's pacing alone would make it 5 s
    expect(response.results.length).toBeGreaterThan(0)
    expect(response.results.every((result) => result.foundBy === OFFLINE_FALLBACK_LABEL)).toBe(true)
    expect(response.results.every((result) => result.url.startsWith('https://corpus.local/'))).toBe(true)
    expect(response.notices).toEqual([
      {
        code: 'offline_fallback',
        message: expect.stringMatching(
          /looks offline\. .* The local corpus answered instead: its documents are not from the live web\.$/,
        ),
      },
    ])
  }
})

test('a port fetch refuses to use (9, the discard port) fails at once, unreached: no retries, no pacing', async () => {
  const gdelt = createGdeltSearch({
    baseUrl: 'http://127.0.0.1:9',
    userAgent: 'Sextant/1.0 (+https://sextant.test)',
    timeoutMs: 20_000,
  })
  const started = performance.now()
  const failures = await Promise.all(
    ['sodium batteries', 'sodium cathodes', 'sodium storage'].map((text) =>
      gdelt.search({ ...query, text }, noDeadline()).catch((error) => error),
    ),
  )
  // Three queries in a row, each pacing 5 s behind a request that reached GDELT, would take 10 s.
  expect(performance.now() - started).toBeLessThan(3000)
  for (const failure of failures) {
    expect(failure).toBeInstanceOf(SourceUnreachableError)
    expect(failure.reachedServer).toBe(false)
    expect(failure.message).toBe('Could not reach GDELT at http://127.0.0.1:9 (bad port).')
  }
})

test('every source failed, not all of them unreachable: a failed search, not an offline machine', async () => {
  const nowhere = `http://127.0.0.1:${await closedPort()}`
  const options = { userAgent: 'Sextant/1.0 (+https://sextant.test)', timeoutMs: 5000, minIntervalMs: 0 }
  stub.setBehaviour('arxiv', 'refuse', { times: 1 })
  const open = createOpenSearch({
    sources: [
      createGdeltSearch({ ...options, baseUrl: nowhere }),
      createWikipediaSearch({ ...options, baseUrl: nowhere }),
      createArxivSearch({ ...options, baseUrl: stub.url }),
    ],
    timeoutMs: 5000,
  })
  const failure = await open.search(query, noDeadline()).catch((error) => error)
  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).not.toBeInstanceOf(SearchOfflineError)
  expect(failure.message).toMatch(
    /^Every open source failed\. .*arXiv refused the query: incorrect value for max_results/,
  )
})

test('a run cancelled mid-search stops the search with its own reason, not a source failure', async () => {
  stub.setBehaviour('hackernews', 'hang')
  try {
    const run = new AbortController()
    const searching = openOnStub(20_000).search(query, { signal: run.signal })
    setTimeout(() => run.abort(new Error('the run was cancelled')), 200)
    await expect(searching).rejects.toThrow('the run was cancelled')
  } finally {
    stub.setBehaviour('hackernews', 'answer')
  }
})
