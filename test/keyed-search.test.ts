// Tavily (through @tavily/core), Brave and SearXNG, each against a stub in its wire format: the
// request each sends (key, count, date filter), the results mapped (dates, snippet or page text),
// and failures: a refused key named, 429 retried, 5xx retried then failed, slow answers timed out.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { createBraveSearch } from '#server/providers/search/brave.ts'
import { createSearxngSearch } from '#server/providers/search/searxng.ts'
import { createTavilySearch } from '#server/providers/search/tavily.ts'
import { ProviderError } from '#server/providers/types.ts'
import { closedPort } from '#test/support/closed-port.ts'
import {
  STUB_BRAVE_API_KEY,
  STUB_TAVILY_API_KEY,
  type StubSearchDocument,
  startStubBrave,
  startStubSearxng,
  startStubTavily,
} from '#test/support/stub-keyed-search.ts'

const noDeadline = () => ({ signal: new AbortController().signal })
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
const dateDaysAgo = (days: number) => daysAgo(days).slice(0, 10)
const today = () => new Date().toISOString().slice(0, 10)
const userAgent = 'Sextant/1.0 (+https://sextant.test; ops@sextant.test)'
const query = { text: 'sodium-ion storage', numResults: 5, maxCharacters: 300 }

const documents: StubSearchDocument[] = [
  {
    url: 'https://news.example/sodium-plant',
    title: 'Sodium-ion storage plant opens',
    publishedDate: daysAgo(2),
    snippet: "A sodium-ion storage plant of 100 MWh opened in Ohio, the utility's first.",
    pageText: `The plant stores 100 MWh in sodium-ion cells. ${'More page text. '.repeat(40)}`,
  },
  {
    url: 'https://blog.example/sodium-costs',
    title: 'What sodium-ion storage costs',
    publishedDate: null,
    snippet: 'Sodium-ion storage costs fell to $70 per kWh & keep falling.',
  },
  {
    url: 'https://old.example/sodium-2020',
    title: 'Sodium-ion storage, a primer',
    publishedDate: daysAgo(20),
    snippet: 'Sodium-ion storage was a laboratory curiosity.',
  },
]

test('tavily: searches through @tavily/core with the key, a basic search, the count, raw content and the start date', async () => {
  const stub = await startStubTavily(documents)
  try {
    const tavily = createTavilySearch({ apiKey: STUB_TAVILY_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    expect(tavily.name).toBe('tavily')
    const response = await tavily.search({ ...query, startPublishedDate: dateDaysAgo(10) }, noDeadline())

    expect(stub.requests).toHaveLength(1)
    expect(stub.requests[0]).toMatchObject({ method: 'POST', path: '/search' })
    expect(stub.requests[0]?.headers.authorization).toBe(`Bearer ${STUB_TAVILY_API_KEY}`)
    expect(stub.requests[0]?.body).toMatchObject({
      query: 'sodium-ion storage',
      search_depth: 'basic',
      max_results: 5,
      include_raw_content: 'text',
      start_date: dateDaysAgo(10),
    })
    // The pages undated or before the start date: Tavily left them out.
    expect(response.results).toEqual([
      {
        url: 'https://news.example/sodium-plant',
        title: 'Sodium-ion storage plant opens',
        // Tavily's HTTP date, as ISO; its raw text is the page's, clipped, so not snippet-only.
        publishedDate: new Date(new Date(String(documents[0]?.publishedDate)).toUTCString()).toISOString(),
        text: documents[0]?.pageText?.slice(0, 300),
      },
    ])

    const all = await tavily.search(query, noDeadline())
    expect(stub.requests[1]?.body).not.toHaveProperty('start_date')
    expect(all.results).toHaveLength(3)
    // No raw text for this page: Tavily's snippet, to be read in full.
    expect(all.results[1]).toEqual({
      url: 'https://blog.example/sodium-costs',
      title: 'What sodium-ion storage costs',
      publishedDate: null,
      text: 'Sodium-ion storage costs fell to $70 per kWh & keep falling.',
      snippetOnly: true,
    })
  } finally {
    await stub.close()
  }
})

test('tavily: a refused key fails at once naming TAVILY_API_KEY; a used-up plan is not retried', async () => {
  const stub = await startStubTavily(documents)
  try {
    const wrong = createTavilySearch({ apiKey: 'tvly-wrong', baseUrl: stub.url, timeoutMs: 2000 })
    const refused = await wrong.search(query, noDeadline()).catch((error) => error)
    expect(refused).toBeInstanceOf(ProviderError)
    expect(refused).toMatchObject({ status: 401, retryable: false })
    expect(refused.message).toContain('TAVILY_API_KEY')
    expect(stub.requests).toHaveLength(1)

    stub.setBehaviour('quota', { times: 1 })
    const tavily = createTavilySearch({ apiKey: STUB_TAVILY_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    const quota = await tavily.search(query, noDeadline()).catch((error) => error)
    expect(quota).toMatchObject({ status: 432, retryable: false })
    expect(quota.message).toMatch(/usage limit/)
    expect(stub.requests).toHaveLength(2)
  } finally {
    await stub.close()
  }
})

test('tavily: a 429 is retried and the search then succeeds; a 500 every time fails after three tries', async () => {
  const stub = await startStubTavily(documents)
  try {
    const tavily = createTavilySearch({ apiKey: STUB_TAVILY_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    stub.setBehaviour('rate-limit', { times: 1, retryAfterSeconds: 1 })
    const response = await tavily.search(query, noDeadline())
    expect(stub.requests).toHaveLength(2)
    expect(response.results.length).toBeGreaterThan(0)

    stub.setBehaviour('server-error')
    const broken = await tavily.search(query, noDeadline()).catch((error) => error)
    expect(broken).toBeInstanceOf(ProviderError)
    expect(broken).toMatchObject({ status: 500, retryable: true })
    expect(stub.requests).toHaveLength(5)

    stub.setBehaviour('garbage', { times: 3 })
    const garbage = await tavily.search(query, noDeadline()).catch((error) => error)
    expect(garbage.message).toContain('TAVILY_BASE_URL')
  } finally {
    await stub.close()
  }
})

test('tavily: a slow answer times out and is retried; an unreachable address is not', async () => {
  const stub = await startStubTavily(documents)
  try {
    stub.setBehaviour('slow', { delayMs: 5000 })
    const tavily = createTavilySearch({ apiKey: STUB_TAVILY_API_KEY, baseUrl: stub.url, timeoutMs: 300 })
    const slow = await tavily.search(query, noDeadline()).catch((error) => error)
    expect(slow).toBeInstanceOf(ProviderError)
    expect(slow.message).toContain('did not answer within 0.3 s')
    expect(stub.requests).toHaveLength(3)
  } finally {
    await stub.close()
  }
  const closed = `http://127.0.0.1:${await closedPort()}`
  const nowhere = createTavilySearch({ apiKey: STUB_TAVILY_API_KEY, baseUrl: closed, timeoutMs: 2000 })
  const unreachable = await nowhere.search(query, noDeadline()).catch((error) => error)
  expect(unreachable).toMatchObject({ retryable: false })
  expect(unreachable.message).toBe(`Could not reach Tavily at ${closed} (ECONNREFUSED).`)
})

test('brave: GETs web search with the key, count and a freshness range; descriptions become plain snippets', async () => {
  const stub = await startStubBrave(documents)
  try {
    const brave = createBraveSearch({ apiKey: STUB_BRAVE_API_KEY, baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    expect(brave.name).toBe('brave')
    const response = await brave.search({ ...query, startPublishedDate: dateDaysAgo(10) }, noDeadline())

    expect(stub.requests).toHaveLength(1)
    expect(stub.requests[0]).toMatchObject({
      method: 'GET',
      path: '/res/v1/web/search',
      params: { q: 'sodium-ion storage', count: '5', freshness: `${dateDaysAgo(10)}to${today()}` },
    })
    expect(stub.requests[0]?.headers).toMatchObject({
      'x-subscription-token': STUB_BRAVE_API_KEY,
      accept: 'application/json',
      'user-agent': userAgent,
    })
    // Brave's range leaves out the undated page and the one before the start date.
    expect(response.results).toEqual([
      {
        url: 'https://news.example/sodium-plant',
        title: 'Sodium-ion storage plant opens',
        publishedDate: String(documents[0]?.publishedDate).replace(/(\.\d+)?Z$/, ''),
        // <strong> around the query's words and &#x27; in Brave's description, plain here.
        text: "A sodium-ion storage plant of 100 MWh opened in Ohio, the utility's first.",
        snippetOnly: true,
      },
    ])

    const all = await brave.search({ ...query, maxCharacters: 29 }, noDeadline())
    expect(stub.requests[1]?.params).not.toHaveProperty('freshness')
    expect(all.results.map((result) => result.text)).toContain('Sodium-ion storage costs fell')
    expect(all.results.find((result) => result.url.includes('costs'))?.publishedDate).toBeNull()

    // Nothing matched: Brave leaves `web` out of its answer.
    expect((await brave.search({ ...query, text: 'zeppelin' }, noDeadline())).results).toEqual([])
  } finally {
    await stub.close()
  }
})

test('brave: a key Brave does not know (422) or a 401 fails at once naming BRAVE_API_KEY', async () => {
  const stub = await startStubBrave(documents)
  try {
    const wrong = createBraveSearch({ apiKey: 'wrong', baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    const invalid = await wrong.search(query, noDeadline()).catch((error) => error)
    expect(invalid).toBeInstanceOf(ProviderError)
    expect(invalid).toMatchObject({ status: 422, retryable: false })
    expect(invalid.message).toMatch(/SUBSCRIPTION_TOKEN_INVALID.*BRAVE_API_KEY/)

    stub.setBehaviour('refuse-key', { times: 1 })
    const brave = createBraveSearch({ apiKey: STUB_BRAVE_API_KEY, baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    const unauthorized = await brave.search(query, noDeadline()).catch((error) => error)
    expect(unauthorized).toMatchObject({ status: 401, retryable: false })
    expect(unauthorized.message).toContain('BRAVE_API_KEY')
    expect(stub.requests).toHaveLength(2)
  } finally {
    await stub.close()
  }
})

test("brave: a 429 waits for Retry-After or X-RateLimit-Reset and is retried; the month's quota used up is not", async () => {
  const stub = await startStubBrave(documents)
  try {
    const brave = createBraveSearch({ apiKey: STUB_BRAVE_API_KEY, baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    stub.setBehaviour('rate-limit', { times: 1 }) // X-RateLimit-Reset: 1 s, no Retry-After
    expect((await brave.search(query, noDeadline())).results.length).toBeGreaterThan(0)
    stub.setBehaviour('rate-limit', { times: 1, retryAfterSeconds: 2 })
    expect((await brave.search(query, noDeadline())).results.length).toBeGreaterThan(0)
    expect(stub.requests).toHaveLength(4)
    // Each retry waited as long as Brave asked (our own backoff would have been 0.25 to 0.5 s).
    const [first, second, third, fourth] = stub.requests.map((request) => request.at) as number[]
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(950)
    expect((fourth as number) - (third as number)).toBeGreaterThanOrEqual(1950)

    stub.setBehaviour('quota', { times: 1 })
    const quota = await brave.search(query, noDeadline()).catch((error) => error)
    expect(quota).toMatchObject({ status: 429, retryable: false })
    expect(quota.message).toMatch(/quota for this key is used up .*resets in 17 days/)
    expect(stub.requests).toHaveLength(5)

    stub.setBehaviour('server-error')
    const broken = await brave.search(query, noDeadline()).catch((error) => error)
    expect(broken).toMatchObject({ status: 500, retryable: true })
    expect(stub.requests).toHaveLength(8)
  } finally {
    await stub.close()
  }
})

test('brave: a slow answer times out after three tries', async () => {
  const stub = await startStubBrave(documents)
  try {
    stub.setBehaviour('slow', { delayMs: 5000 })
    const brave = createBraveSearch({ apiKey: STUB_BRAVE_API_KEY, baseUrl: stub.url, userAgent, timeoutMs: 300 })
    const slow = await brave.search(query, noDeadline()).catch((error) => error)
    expect(slow).toBeInstanceOf(ProviderError)
    expect(slow.message).toContain('Brave did not answer within 0.3 s')
    expect(stub.requests).toHaveLength(3)
  } finally {
    await stub.close()
  }
})

test('searxng: asks for JSON in the smallest time range that covers the start date, and filters by date too', async () => {
  const stub = await startStubSearxng(documents)
  try {
    const searxng = createSearxngSearch({ baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    expect(searxng.name).toBe('searxng')
    const response = await searxng.search({ ...query, startPublishedDate: dateDaysAgo(10) }, noDeadline())
    expect(stub.requests[0]).toMatchObject({
      method: 'GET',
      path: '/search',
      params: { q: 'sodium-ion storage', format: 'json', time_range: 'month' },
    })
    expect(stub.requests[0]?.headers['user-agent']).toBe(userAgent)
    // The month's page 20 days old came back and is dropped here; the undated one is kept.
    expect(response.results).toEqual([
      {
        url: 'https://news.example/sodium-plant',
        title: 'Sodium-ion storage plant opens',
        publishedDate: String(documents[0]?.publishedDate).replace(/(\.\d+)?Z$/, ''),
        text: "A sodium-ion storage plant of 100 MWh opened in Ohio, the utility's first.",
        snippetOnly: true,
        foundBy: 'SearXNG (duckduckgo, brave)',
      },
      {
        url: 'https://blog.example/sodium-costs',
        title: 'What sodium-ion storage costs',
        publishedDate: null,
        text: 'Sodium-ion storage costs fell to $70 per kWh & keep falling.',
        snippetOnly: true,
        foundBy: 'SearXNG (duckduckgo, brave)',
      },
    ])

    for (const [days, range] of [
      [0, 'day'],
      [7, 'week'],
      [30, 'month'],
      [90, 'year'],
    ] as const) {
      await searxng.search({ ...query, startPublishedDate: dateDaysAgo(days) }, noDeadline())
      expect(stub.requests.at(-1)?.params.time_range, `${days} days`).toBe(range)
    }
    // Older than a year, or no start date: no range is sent.
    await searxng.search({ ...query, startPublishedDate: dateDaysAgo(400) }, noDeadline())
    expect(stub.requests.at(-1)?.params).not.toHaveProperty('time_range')
    const all = await searxng.search({ ...query, numResults: 2 }, noDeadline())
    expect(stub.requests.at(-1)?.params).not.toHaveProperty('time_range')
    expect(all.results).toHaveLength(2)
  } finally {
    await stub.close()
  }
})

test('searxng: an instance without the JSON format says how to enable it; engines that failed are notices', async () => {
  const off = await startStubSearxng(documents, { jsonFormat: false })
  try {
    const searxng = createSearxngSearch({ baseUrl: off.url, userAgent, timeoutMs: 2000 })
    const refused = await searxng.search(query, noDeadline()).catch((error) => error)
    expect(refused).toBeInstanceOf(ProviderError)
    expect(refused).toMatchObject({ status: 403, retryable: false })
    expect(refused.message).toContain('enable `json` under search.formats')
    expect(off.requests).toHaveLength(1)
  } finally {
    await off.close()
  }

  const stub = await startStubSearxng(documents)
  try {
    stub.setBehaviour('engines-failing', { times: 1 })
    const searxng = createSearxngSearch({ baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    const response = await searxng.search(query, noDeadline())
    expect(response.results.length).toBeGreaterThan(0)
    expect(response.notices).toEqual([
      {
        code: 'source_failed',
        message: "SearXNG's engine google did not answer (CAPTCHA); results come from its other engines.",
      },
    ])
  } finally {
    await stub.close()
  }
})

test("searxng: the limiter's 429 is retried; a 500 every time fails after three tries", async () => {
  const stub = await startStubSearxng(documents)
  try {
    const searxng = createSearxngSearch({ baseUrl: stub.url, userAgent, timeoutMs: 2000 })
    stub.setBehaviour('rate-limit', { times: 1 })
    expect((await searxng.search(query, noDeadline())).results.length).toBeGreaterThan(0)
    expect(stub.requests).toHaveLength(2)

    stub.setBehaviour('rate-limit')
    const limited = await searxng.search(query, noDeadline()).catch((error) => error)
    expect(limited.message).toContain('server.limiter')

    stub.setBehaviour('server-error')
    const broken = await searxng.search(query, noDeadline()).catch((error) => error)
    expect(broken).toMatchObject({ status: 500, retryable: true })
    expect(stub.requests).toHaveLength(8)
  } finally {
    await stub.close()
  }
})

test('searxng: a redirect is not followed (it would take the search elsewhere) and names SEARXNG_URL', async () => {
  let followed = false
  const target = http.createServer((_request, response) => {
    followed = true
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"results": []}')
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/search`
  const redirecting = http.createServer((_request, response) => {
    response.writeHead(301, { location: targetUrl }).end()
  })
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
  try {
    const baseUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`
    const searxng = createSearxngSearch({ baseUrl, userAgent, timeoutMs: 2000 })
    const failure = await searxng.search(query, noDeadline()).catch((error) => error)
    expect(failure).toMatchObject({ status: 301, retryable: false })
    expect(failure.message).toContain(`redirect (HTTP 301) to ${targetUrl}: set SEARXNG_URL`)
    expect(followed).toBe(false)
  } finally {
    await new Promise((resolve) => redirecting.close(resolve))
    await new Promise((resolve) => target.close(resolve))
  }
})
