// The sample corpus is invented, and every surface says so: the report's generatedWith and notice
// (REST and MCP), the run page, the trial page, the search step's name. Its sources open as pages of
// ours (the corpus's own names, https://corpus.local/..., open nothing), and memory's do too.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createCorpusSearch } from '#server/providers/search/corpus.ts'
import { upsertCorpusDocument } from '#server/repositories/corpus-documents.ts'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { startPublishedDate } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

const PUBLIC_URL = 'https://sextant.example'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { PUBLIC_URL, RATE_LIMIT_RUNS_PER_HOUR: '100', RATE_LIMIT_DEMO_PER_DAY: '10' } })
})
afterAll(async () => {
  await app.stop()
})

/** Every href of a page. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((match) => (match[1] as string).replaceAll('&amp;', '&'))
}

/** The page a link of ours leads to: 200, the article, and the banner saying it is invented. */
async function expectInventedArticle(path: string, title?: string) {
  const response = await app.fetch(path)
  const html = await response.text()
  expect(response.status, path).toBe(200)
  expect(html).toContain('Invented sample article.')
  expect(html).toContain('<meta name="robots" content="noindex"/>')
  if (title) expect(html).toContain(title.replaceAll('&', '&amp;').replaceAll("'", '&#x27;'))
}

async function sampleRun() {
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, {
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
  })
  const run = await waitForRun(app.fetch, user.auth, body.runId)
  expect(run.status, JSON.stringify(run.error)).toBe('complete')
  return { user, run, report: run.report as NonNullable<typeof run.report> }
}

test('a run on the sample corpus says in its report that its sources are invented, and they open here', async () => {
  const { report } = await sampleRun()
  expect(report.generatedWith).toMatchObject({ corpus: 'sample', search: expect.stringMatching(/invented/) })
  expect(report.generatedWith.search).toMatch(/not the web/)
  expect(report.generatedWith.offlineFallback).toBeUndefined()
  expect(report.notice).toMatch(/^This run searched the sample corpus bundled with Sextant.*invented articles/)
  expect(report.sources.length).toBeGreaterThan(0)
  for (const source of report.sources) {
    expect(source.corpus).toBe('sample')
    // An API client gets a link it can open: the document's page on this server, from PUBLIC_URL.
    expect(source.url.startsWith(`${PUBLIC_URL}/corpus/heat-pumps/`), source.url).toBe(true)
    await expectInventedArticle(new URL(source.url).pathname, source.title)
  }
  expect(JSON.stringify(report)).not.toContain('corpus.local')
})

test('a re-run still skips the corpus documents it read: their names in the ledger do not change', async () => {
  const { user, report } = await sampleRun()
  const { body } = await postBrief(app.fetch, user.auth, {
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
  })
  const again = await waitForRun(app.fetch, user.auth, body.runId)
  expect(again.status).toBe('complete')
  const read = new Set(report.sources.map((source) => source.url))
  expect(again.report?.sources.filter((source) => read.has(source.url))).toEqual([])
  // The searches found some of them again, and the ledger left them out.
  const queries = (await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)).filter(
    (event) => event.type === 'query_done',
  )
  const count = (key: string) => queries.reduce((sum, event) => sum + Number(event.data[key]), 0)
  expect(count('results')).toBeGreaterThan(count('new'))
  expect(again.report?.generatedWith.corpus).toBe('sample')
})

test('a run quotes no page its searches found for one shared word, and neither does its re-run', async () => {
  // What the trial page runs: the last 30 days. The corpus settles for any of a query's words, so the
  // fallback plan's searches also find battery articles (one tested cells "in the cold").
  const topic = 'heat pumps in cold climates'
  const since = startPublishedDate('30d', new Date())
  const search = createCorpusSearch({ db: app.db })
  const found = await Promise.all(
    [topic, `${topic} latest developments`, `${topic} data and statistics`].map((text) =>
      search.search(
        { text, startPublishedDate: since, numResults: 5, maxCharacters: 2000 },
        { signal: AbortSignal.timeout(10_000) },
      ),
    ),
  )
  const urls = found.flatMap(({ results }) => results.map((result) => result.url))
  expect(
    urls.some((url) => url.includes('/batteries/')),
    urls.join(' '),
  ).toBe(true)

  const user = await createTestAccount(app.db)
  for (const round of ['first run', 're-run']) {
    const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick', timeframe: '30d' })
    const run = await waitForRun(app.fetch, user.auth, body.runId)
    expect(run.status, round).toBe('complete')
    const cited = run.report?.sources.map((source) => source.url) ?? []
    if (round === 'first run') expect(cited.length).toBeGreaterThan(0)
    for (const url of cited) expect(url, round).toContain('/corpus/heat-pumps/')
  }
})

test("a topic the corpus knows nothing of gives no finding from pages its plan's added words found", async () => {
  // The fallback plan searches "quantum error correction latest developments", "... data and
  // statistics" and more; the corpus finds invented articles by those added words alone.
  const topic = 'quantum error correction'
  const search = createCorpusSearch({ db: app.db })
  const found = await Promise.all(
    [`${topic} latest developments`, `${topic} data and statistics`].map((text) =>
      search.search({ text, numResults: 5, maxCharacters: 2000 }, { signal: AbortSignal.timeout(10_000) }),
    ),
  )
  expect(found.flatMap(({ results }) => results).length).toBeGreaterThan(0)

  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick', timeframe: 'all' })
  const run = await waitForRun(app.fetch, user.auth, body.runId)
  expect(run.status).toBe('complete')
  expect(run.report?.sources).toEqual([])
  expect(run.report?.summary).toContain('No page read in this run is about quantum error correction')
})

test('the run page shows the notice, names the search step after the corpus, and links no corpus.local', async () => {
  const { user, run, report } = await sampleRun()
  const cookie = await logIn(app.url, user.email, user.password)
  const response = await app.fetch(`/dashboard/runs/${run.runId}`, { headers: { Cookie: cookie } })
  const html = (await response.text()).replaceAll('<!-- -->', '')
  expect(response.status).toBe(200)
  expect(html).toContain('Not the web.')
  expect(html).toContain(
    'invented articles on batteries, AI agents and heat pumps (the companies, people and figures in them are made up)',
  )
  expect(html).toContain('Search the local corpus (not the web)')
  expect(html).not.toContain('Search the web')
  expect(html).toContain('invented sample article, bundled with Sextant')
  const links = hrefs(html)
  expect(links.filter((href) => href.includes('corpus.local'))).toEqual([])
  const corpusLinks = links.filter((href) => href.startsWith('/corpus/'))
  expect(corpusLinks.length).toBe(report.sources.length)
  for (const href of corpusLinks) await expectInventedArticle(href)

  // The topic page links memory's sources (stored by their corpus names) to the same pages.
  const topic = await app.db
    .selectFrom('topics')
    .select('id')
    .where('account_id', '=', user.account.id)
    .executeTakeFirst()
  const topicPage = await (await app.fetch(`/dashboard/topics/${topic?.id}`, { headers: { Cookie: cookie } })).text()
  expect(hrefs(topicPage).filter((href) => href.includes('corpus.local'))).toEqual([])
  expect(hrefs(topicPage).filter((href) => href.startsWith('/corpus/')).length).toBeGreaterThan(0)
  // The topic page says first that these sources are invented, as a run's report does.
  expect(topicPage.replaceAll('<!-- -->', '')).toMatch(
    /Not the web\.<\/strong> All of these sources are invented articles of the sample corpus/,
  )
  // Nor does it show a corpus document's name anywhere a reader sees (the loader's data may carry it).
  expect(topicPage.replace(/<script[\s\S]*?<\/script>/g, '')).not.toContain('corpus.local')

  // The topic's Markdown export links them by their pages too.
  const exported = await (
    await app.fetch(`/dashboard/topics/${topic?.id}/export`, { headers: { Cookie: cookie } })
  ).text()
  expect(exported).not.toContain('corpus.local')
  expect(exported).toContain(`<${PUBLIC_URL}/corpus/heat-pumps/`)
})

test('the trial page says this server searches an invented sample, and its runs carry the notice', async () => {
  const empty = await (await app.fetch('/trial')).text()
  expect(empty).toContain('This server searches a sample, not the web:')
  expect(empty).not.toContain('on the web')
  const home = await (await app.fetch('/')).text()
  expect(home).toContain('This server searches a sample, not the web:')
  expect(home).not.toContain('reads the web')

  const base = new URL(app.url)
  const started = await app.fetch('/trial', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base.origin },
    body: new URLSearchParams({ topic: 'sodium-ion batteries', timeframe: 'all' }),
  })
  expect(started.status).toBe(302)
  const cookie = /(sx_trial=[^;]+)/.exec(started.headers.get('set-cookie') ?? '')?.[1] ?? ''
  const path = started.headers.get('location') as string
  const runId = new URL(path, base).searchParams.get('run') as string
  for (let i = 0; i < 300; i++) {
    const row = await app.db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirstOrThrow()
    if (row.status !== 'running') break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const html = (await (await app.fetch(path, { headers: { Cookie: cookie } })).text()).replaceAll('<!-- -->', '')
  expect(html).toContain('Not the web.')
  expect(html).toContain('Search the local corpus (not the web)')
  expect(hrefs(html).filter((href) => href.includes('corpus.local'))).toEqual([])
  const corpusLinks = hrefs(html).filter((href) => href.startsWith('/corpus/batteries/'))
  expect(corpusLinks.length).toBeGreaterThan(0)
  for (const href of corpusLinks) await expectInventedArticle(href)
})

test("MCP's report leads with the notice, and its sources are pages of ours", async () => {
  const { user, run } = await sampleRun()
  const client = new Client({ name: 'sextant-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), {
      requestInit: { headers: { Authorization: `Bearer ${user.key}` } },
    }),
  )
  try {
    const result = await client.callTool({ name: 'get_run_report', arguments: { runId: run.runId } })
    expect(result.isError).not.toBe(true)
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? ''
    expect(text).toMatch(/^Note: This run searched the sample corpus bundled with Sextant/)
    expect(text).not.toContain('corpus.local')
    expect(result.structuredContent).toMatchObject({
      notice: expect.stringMatching(/invented/),
      generatedWith: { corpus: 'sample' },
    })
    // The topic tools too: the notice first, and the sources as pages of ours, as the report gives them.
    for (const name of ['get_topic_memory', 'get_topic_delta']) {
      const topic = await client.callTool({ name, arguments: { topic: 'heat pumps in cold climates' } })
      expect(topic.isError, name).not.toBe(true)
      const said = (topic.content as Array<{ text: string }>)[0]?.text ?? ''
      expect(said, name).toMatch(/^Note: All of these sources are invented articles of the sample corpus/)
      expect(said, name).not.toContain('corpus.local')
      expect(said, name).toContain(`${PUBLIC_URL}/corpus/heat-pumps/`)
      expect(JSON.stringify(topic.structuredContent), name).not.toContain('corpus.local')
      expect(topic.structuredContent, name).toMatchObject({ notice: expect.stringMatching(/made up/) })
    }
    // Search and compare give the same addresses (they once gave the corpus names, which open nothing).
    const calls = [
      { name: 'search_memory', arguments: { query: 'heat pump' } },
      {
        name: 'compare_topics',
        arguments: { topicA: 'heat pumps in cold climates', topicB: 'Heat pumps in cold climates' },
      },
      { name: 'export_topic', arguments: { topic: 'heat pumps in cold climates' } },
    ]
    for (const call of calls) {
      const answer = await client.callTool(call)
      expect(answer.isError, call.name).not.toBe(true)
      const structured = JSON.stringify(answer.structuredContent)
      expect(structured, call.name).not.toContain('corpus.local')
      expect(structured, call.name).toContain(`${PUBLIC_URL}/corpus/heat-pumps/`)
    }
  } finally {
    await client.close()
  }
})

test('a corpus page that does not exist is a 404 page, whatever the path', async () => {
  for (const path of [
    '/corpus/heat-pumps/no-such-article',
    '/corpus/',
    '/corpus/%00',
    '/corpus/%ED%A0%80',
    `/corpus/${'a'.repeat(5000)}`,
    '/corpus/heat-pumps/defrost-cycles?x=1',
    '/corpus//corpus.local/heat-pumps/defrost-cycles',
  ]) {
    const response = await app.fetch(path)
    expect(response.status, path).toBe(404)
    expect(await response.text()).toContain('There is no corpus document at this address.')
  }
})

test("a re-run whose only new source is the user's own document says so, not that its sources are invented", async () => {
  const { user } = await sampleRun()
  // The user indexes a document of their own on the topic (not invented) after the first run.
  await upsertCorpusDocument(app.db, {
    url: 'https://intranet.example/notes/heat-pump-trial',
    title: 'Our heat pump trial in cold climates',
    publishedDate: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    text:
      'Heat pumps in cold climates: our own trial at the depot. The two heat pumps in cold climates kept ' +
      'the depot at 19 degrees through a week of minus 18 degrees, using 41 kWh a day between them.',
    invented: false,
  })
  const { body } = await postBrief(app.fetch, user.auth, {
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
  })
  const again = await waitForRun(app.fetch, user.auth, body.runId)
  // The other tests search the sample alone.
  await app.db
    .deleteFrom('corpus_documents')
    .where('url', '=', 'https://intranet.example/notes/heat-pump-trial')
    .execute()
  const report = again.report as NonNullable<typeof again.report>
  expect(report.sources.map((source) => [source.corpus, source.title])).toEqual([
    ['local', 'Our heat pump trial in cold climates'],
  ])
  expect(report.generatedWith.corpus).toBe('local')
  expect(report.notice).toMatch(/documents indexed on this server/)
  expect(report.notice).not.toMatch(/invented/)
})
