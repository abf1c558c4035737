// A brief researched through a SearXNG instance (SEARCH_PROVIDER=searxng, the stub in its JSON
// format) and the extractive synthesizer: the wiring from config to report, end to end. Tavily and
// Brave go through the same createSearch switch; their adapters are tested in keyed-search.test.ts.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import { type StubKeyedSearch, startStubSearxng } from '#test/support/stub-keyed-search.ts'

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()

let stub: StubKeyedSearch
let app: TestApp
beforeAll(async () => {
  stub = await startStubSearxng([
    {
      url: 'https://news.example/sodium-ion-plant',
      title: 'Sodium-ion battery plant opens in Ohio',
      publishedDate: daysAgo(2),
      snippet:
        'A sodium-ion battery plant in Ohio began production this week, with an annual capacity of 20 GWh of cells for grid storage.',
      engines: ['bing', 'duckduckgo'],
    },
    {
      url: 'https://research.example/hard-carbon',
      title: 'Hard carbon anodes for sodium-ion batteries',
      publishedDate: daysAgo(6),
      snippet:
        'Hard carbon anodes for sodium-ion batteries reached 310 mAh per gram at room temperature, a record for the material.',
      engines: ['google scholar'],
    },
    {
      url: 'https://blog.example/sodium-ion-winter',
      title: 'Sodium-ion batteries in the cold',
      publishedDate: null,
      snippet:
        'Our sodium-ion home battery of 10 kWh has run through two winters at minus 20 degrees without losing capacity.',
    },
  ])
  app = await startTestApp({
    env: {
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: stub.url,
      PUBLIC_URL: 'https://sextant.test',
      RATE_LIMIT_RUNS_PER_HOUR: '100',
    },
  })
}, 120_000)
afterAll(async () => {
  await app?.stop()
  await stub?.close()
})

test('with SEARCH_PROVIDER=searxng, a brief searches the instance in JSON and its report cites what it found', async () => {
  const user = await createTestAccount(app.db)
  const { response, body } = await postBrief(app.fetch, user.auth, {
    topic: 'Sodium-ion batteries',
    depth: 'quick',
    timeframe: '30d',
  })
  expect(response.status).toBe(202)
  const run = await waitForRun(app.fetch, user.auth, body.runId, 60_000)
  expect(run.status, JSON.stringify(run.error)).toBe('complete')
  const report = run.report
  if (!report) throw new Error('a complete run has a report')
  expectCitationsResolve(report)
  expect(report.generatedWith.search).toBe('searxng')

  // Every query went to the instance as JSON, limited to the month the 30-day brief covers.
  expect(stub.requests.length).toBeGreaterThan(0)
  for (const request of stub.requests) {
    expect(request).toMatchObject({ path: '/search', params: { format: 'json', time_range: 'month' } })
    expect(request.headers['user-agent']).toBe('Sextant/1.0 (+https://sextant.test)')
  }
  const stubbed = new Set(stub.documents.map((document) => document.url))
  const cited = report.sources.map((source) => source.url)
  expect(cited.length).toBeGreaterThan(0)
  expect(
    cited.every((url) => stubbed.has(url)),
    JSON.stringify(cited),
  ).toBe(true)
}, 90_000)
