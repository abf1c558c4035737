// A brief researched with no keys at all: SEARCH_PROVIDER=open with the five open sources stubbed in
// their wire formats, and the extractive synthesizer. The report cites pages several sources found.

import { afterAll, beforeAll, expect, test } from 'vitest'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { unreachableOpenSources } from '#test/support/closed-port.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import { OPEN_SOURCES, type StubOpenSources, startStubOpenSources } from '#test/support/stub-open-sources.ts'

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()

let stub: StubOpenSources
let app: TestApp
beforeAll(async () => {
  stub = await startStubOpenSources({
    gdelt: [
      {
        url: 'https://news.example/sodium-ion-plant',
        title: 'Sodium-ion battery plant opens in Ohio',
        publishedDate: daysAgo(2),
        text: '',
      },
    ],
    wikipedia: [
      {
        url: 'https://en.wikipedia.org/wiki/Sodium-ion_battery',
        title: 'Sodium-ion battery',
        publishedDate: daysAgo(300),
        text: 'A sodium-ion battery is a rechargeable battery that uses sodium ions as its charge carriers. Sodium-ion batteries avoid lithium, cobalt and nickel, which makes their materials cheaper.',
      },
    ],
    openalex: [
      {
        url: 'https://doi.example/10.5555/sodium-cathode',
        title: 'Layered oxide cathodes for sodium-ion batteries',
        publishedDate: daysAgo(6),
        text: 'Layered oxide cathodes for sodium-ion batteries kept 92 percent of their capacity after 3000 cycles in our tests.',
      },
    ],
    arxiv: [
      {
        url: 'https://arxiv.org/abs/2609.04567',
        title: 'Hard carbon anodes for sodium-ion batteries',
        publishedDate: daysAgo(4),
        text: 'Hard carbon anodes for sodium-ion batteries reached 310 mAh per gram at room temperature, a record for the material.',
      },
    ],
    hackernews: [
      {
        url: 'https://news.ycombinator.com/',
        title: 'Ask HN: Sodium-ion batteries for home storage?',
        publishedDate: daysAgo(3),
        text: '<p>Our sodium-ion home battery of 10 kWh has run through two winters at minus 20 degrees without losing capacity.</p>',
      },
    ],
  })
  app = await startTestApp({
    env: {
      ...stub.env,
      SEARCH_PROVIDER: 'open',
      PUBLIC_URL: 'https://sextant.test',
      SEARCH_CONTACT_EMAIL: 'ops@sextant.test',
      RUN_DEADLINE_QUICK_SECONDS: '90',
      RATE_LIMIT_RUNS_PER_HOUR: '100',
    },
  })
}, 120_000)
afterAll(async () => {
  await app?.stop()
  await stub?.close()
})

test('with no keys, a brief searches the five open sources and its report cites pages from several', async () => {
  const user = await createTestAccount(app.db)
  const { response, body } = await postBrief(app.fetch, user.auth, {
    topic: 'Sodium-ion batteries',
    depth: 'quick',
    timeframe: '30d',
  })
  expect(response.status).toBe(202)
  // GDELT's 5 s between requests is kept: a quick run's three queries take about 10 s of it.
  const run = await waitForRun(app.fetch, user.auth, body.runId, 90_000)
  expect(run.status, JSON.stringify(run.error)).toBe('complete')
  const report = run.report
  if (!report) throw new Error('a complete run has a report')
  expectCitationsResolve(report)
  expect(report.generatedWith.search).toBe('open sources (GDELT, Wikipedia, OpenAlex, arXiv, Hacker News)')

  // Every source was asked, as itself, with the date filter it knows, introducing us by name.
  for (const source of OPEN_SOURCES) {
    const asked = stub.requests.filter((request) => request.source === source)
    expect(asked.length, source).toBeGreaterThan(0)
    expect(
      asked.every((request) => request.userAgent === 'Sextant/1.0 (+https://sextant.test; ops@sextant.test)'),
    ).toBe(true)
  }
  const since = new Date(Date.now() - 31 * 86_400_000).toISOString().slice(0, 10)
  expect(stub.requests.find((request) => request.source === 'openalex')?.params.filter).toMatch(
    /^from_publication_date:\d{4}-\d{2}-\d{2}$/,
  )
  expect(
    (stub.requests.find((request) => request.source === 'openalex')?.params.filter ?? '').slice(-10) >= since,
  ).toBe(true)

  // The report's sources are pages different open sources found.
  const foundBy = (url: string) =>
    [
      ['news.example', 'gdelt'],
      ['wikipedia.org', 'wikipedia'],
      ['doi.example', 'openalex'],
      ['arxiv.org', 'arxiv'],
      ['news.ycombinator.com', 'hackernews'],
    ].find(([host]) => new URL(url).hostname.endsWith(host as string))?.[1]
  const urls = report.sources.map((source) => source.url)
  expect(
    urls.every((url) => foundBy(url) !== undefined),
    JSON.stringify(urls),
  ).toBe(true)
  expect(new Set(urls.map(foundBy)).size, JSON.stringify(urls)).toBeGreaterThanOrEqual(3)
}, 120_000)

test('on a machine that reaches no open source, the run searches the local corpus instead and says so', async () => {
  const offline = await startTestApp({
    env: {
      SEARCH_PROVIDER: 'open',
      ...(await unreachableOpenSources()),
      RATE_LIMIT_RUNS_PER_HOUR: '100',
    },
  })
  try {
    const user = await createTestAccount(offline.db)
    const { body } = await postBrief(offline.fetch, user.auth, { topic: 'Sodium-ion batteries', depth: 'quick' })
    const run = await waitForRun(offline.fetch, user.auth, body.runId, 60_000)
    expect(run.status, JSON.stringify(run.error)).toBe('complete')
    const report = run.report as NonNullable<typeof run.report>
    expect(report.sources.length).toBeGreaterThan(0)
    // Every source is an invented sample article, linked to its page here, and the report says why.
    expect(report.sources.every((source) => source.corpus === 'sample')).toBe(true)
    expect(report.sources.every((source) => new URL(source.url).pathname.startsWith('/corpus/'))).toBe(true)
    expect(report.generatedWith).toMatchObject({ corpus: 'sample', offlineFallback: true })
    expect(report.generatedWith.search).toMatch(
      /^the sample corpus bundled with Sextant \(invented articles, not the web\), because open sources \(GDELT, .*\) could not be reached$/,
    )
    expect(report.notice).toMatch(/^No web source could be reached \(this machine looks offline\).*invented articles/)
    const events = await readRunEvents(offline.db, eventDataColumn(offline.ring), body.runId, 0)
    const fallbacks = events.filter((event) => event.data.code === 'offline_fallback')
    expect(fallbacks).toHaveLength(1) // said once, not once per query
    expect(fallbacks[0]?.data.message).toMatch(/corpus/i)

    // The run page says so too: the notice, and the search step named after what answered.
    const page = (
      await (
        await offline.fetch(`/dashboard/runs/${body.runId}`, {
          headers: { Cookie: await logIn(offline.url, user.email, user.password) },
        })
      ).text()
    ).replaceAll('<!-- -->', '')
    expect(page).toContain('No web source could be reached (this machine looks offline)')
    expect(page).toContain('Search the local corpus (the web was unreachable)')
    expect(page).not.toContain('Search the web')
  } finally {
    await offline.stop()
  }
}, 120_000)
