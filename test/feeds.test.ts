// Private Atom feeds (issue 20, step 5) on the real app and job system: entries appear as runs end,
// carry the delta, and the feed is valid Atom; another account gets no feed of yours; a revoked token
// is a 404 like one that never was.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MAX_FEEDS_PER_ACCOUNT } from '#server/notify/contract.ts'
import type { Report } from '#server/research/report-types.ts'
import type { BriefInput } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { parseAtom } from '#test/support/atom.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

const PUBLIC_URL = 'https://sextant.example'
let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { SCHEDULE_MIN_INTERVAL: '1s', RATE_LIMIT_RUNS_PER_HOUR: '1000', PUBLIC_URL } })
})
afterAll(async () => {
  await app?.stop()
})

type Auth = Record<string, string>
const TOPIC = 'heat pumps in cold climates'

function postFeed(auth: Auth, body: unknown) {
  return app.fetch('/api/feeds', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

async function run(auth: Auth, brief: Partial<BriefInput>): Promise<{ runId: string; report: Report }> {
  const { response, body } = await postBrief(app.fetch, auth, { topic: TOPIC, depth: 'quick', ...brief } as BriefInput)
  expect(response.status).toBe(202)
  const done = await waitForRun(app.fetch, auth, body.runId)
  expect(done.status).toBe('complete')
  return { runId: body.runId, report: done.report as Report }
}

const changes = (report: Report) =>
  report.delta.newFindings.length + report.delta.updated.length + report.delta.contradicted.length

/** The path of a feed URL (at PUBLIC_URL), to read from the test app. */
const pathOf = (url: string) => new URL(url).pathname

async function readFeed(url: string) {
  const response = await app.fetch(pathOf(url))
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/atom\+xml/)
  return parseAtom(await response.text())
}

test('a topic feed: one entry per run that changed something, newest first, with the delta and a link to the run', async () => {
  const user = await createTestAccount(app.db)
  // No memory yet: no topic to follow.
  expect((await postFeed(user.auth, { topic: TOPIC })).status).toBe(404)
  const first = await run(user.auth, {})
  expect(changes(first.report)).toBeGreaterThan(0)

  const created = await postFeed(user.auth, { topic: TOPIC.toUpperCase() }) // any spelling of the topic
  expect(created.status).toBe(201)
  const feed = await created.json()
  expect(feed).toMatchObject({ topic: TOPIC, seriesId: null, topicId: expect.any(String) })
  expect(feed.url).toMatch(new RegExp(`^${PUBLIC_URL}/feeds/[A-Za-z0-9_-]{43}\\.atom$`))

  const before = await readFeed(feed.url)
  expect(before.id).toBe(`urn:uuid:${feed.id}`)
  expect(before.title).toBe(`Sextant: ${TOPIC}`)
  expect(before.entries.map((entry) => entry.id)).toEqual([`urn:uuid:${first.runId}`])
  const [entry] = before.entries
  expect(entry?.links).toEqual([`${PUBLIC_URL}/dashboard/runs/${first.runId}`])
  expect(entry?.published).toBe(entry?.updated)
  expect(entry?.title).toContain(`${first.report.delta.newFindings.length} new`)
  for (const finding of first.report.delta.newFindings.slice(0, 3)) {
    expect(entry?.content).toContain(htmlOf(finding.text))
  }
  const cited = first.report.sources.find((source) => source.n === first.report.delta.newFindings[0]?.sources[0])
  expect(entry?.content).toContain(`href="${htmlOf(cited?.url ?? 'no source')}"`)

  // A second run: an entry only if it changed something; either way the newest comes first.
  const second = await run(user.auth, {})
  const after = await readFeed(feed.url)
  const expected = [second, first].filter((one) => changes(one.report) > 0).map((one) => `urn:uuid:${one.runId}`)
  expect(after.entries.map((one) => one.id)).toEqual(expected)
  expect(after.updated).toBe(after.entries[0]?.updated)

  const listed = await (await app.fetch('/api/feeds', { headers: user.auth })).json()
  expect(listed.feeds).toEqual([
    { id: feed.id, topic: TOPIC, topicId: feed.topicId, seriesId: null, createdAt: feed.createdAt },
  ])
})

test('a series feed with notify always has every complete run; a revoked token is a 404 like an unknown one', async () => {
  const user = await createTestAccount(app.db)
  const start = await run(user.auth, { recurring: true, every: '2s', notify: 'always', topic: 'district heating' })
  const view = await (await app.fetch(`/api/briefs/${start.runId}`, { headers: user.auth })).json()
  const seriesId: string = view.recurring.seriesId
  // Wait for a scheduled run (same corpus: most likely nothing new), then pause the series.
  const deadline = performance.now() + 30_000
  let runs: Array<{ id: string; status: string }> = []
  while (runs.filter((one) => one.status === 'complete').length < 2) {
    if (performance.now() > deadline) throw new Error('the series did not run again')
    await new Promise((resolve) => setTimeout(resolve, 200))
    runs = await app.db.selectFrom('runs').select(['id', 'status']).where('series_id', '=', seriesId).execute()
  }
  await app.fetch(`/api/series/${seriesId}`, {
    method: 'PATCH',
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'paused' }),
  })
  const settled = Date.now() + 30_000
  while (runs.some((one) => one.status === 'running') && Date.now() < settled) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    runs = await app.db.selectFrom('runs').select(['id', 'status']).where('series_id', '=', seriesId).execute()
  }
  const complete = await app.db
    .selectFrom('runs')
    .select('id')
    .where('series_id', '=', seriesId)
    .where('status', '=', 'complete')
    .orderBy('finished_at', 'desc')
    .execute()

  const created = await postFeed(user.auth, { seriesId })
  expect(created.status).toBe(201)
  const feed = await created.json()
  expect(feed).toMatchObject({ topic: 'district heating', seriesId, topicId: null })
  const atom = await readFeed(feed.url)
  expect(atom.entries.map((entry) => entry.id)).toEqual(complete.map((one) => `urn:uuid:${one.id}`))
  // The scheduled runs found what memory held: told anyway (notify always), and saying so.
  const quiet = await app.db.selectFrom('run_changes').select('run_id').where('changes', '=', 0).execute()
  const quietIds = new Set(quiet.map((row) => `urn:uuid:${row.run_id}`))
  const quietEntries = atom.entries.filter((entry) => quietIds.has(entry.id))
  expect(quietEntries.length).toBeGreaterThan(0)
  for (const entry of quietEntries) expect(entry.content).toContain('Nothing new, updated or contradicted.')

  // Another account can neither make a feed of this series or topic nor revoke this feed.
  const other = await createTestAccount(app.db)
  expect((await postFeed(other.auth, { seriesId })).status).toBe(404)
  expect((await postFeed(other.auth, { topic: 'district heating' })).status).toBe(404)
  const stranger = await app.fetch(`/api/feeds/${feed.id}`, { method: 'DELETE', headers: other.auth })
  expect(stranger.status).toBe(404)
  expect((await app.fetch(pathOf(feed.url))).status).toBe(200)

  const revoked = await app.fetch(`/api/feeds/${feed.id}`, { method: 'DELETE', headers: user.auth })
  expect(revoked.status).toBe(200)
  expect(await revoked.json()).toMatchObject({ id: feed.id, seriesId })
  const gone = await app.fetch(pathOf(feed.url))
  const never = await app.fetch(`/feeds/${'A'.repeat(43)}.atom`)
  const malformed = await app.fetch('/feeds/nope')
  for (const response of [gone, never, malformed]) {
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    const { requestId: _requestId, ...body } = await response.json()
    expect(body).toEqual({
      type: 'about:blank',
      status: 404,
      title: 'Not Found',
      detail: 'There is no feed at this address.',
    })
  }
  expect((await app.fetch(`/api/feeds/${feed.id}`, { method: 'DELETE', headers: user.auth })).status).toBe(404)
  expect((await (await app.fetch('/api/feeds', { headers: user.auth })).json()).feeds).toEqual([])
})

test('a hostile topic name is text in the feed, never markup', async () => {
  const user = await createTestAccount(app.db)
  const topic = `${TOPIC} ]]> ]]><b>x</b> & &amp;`
  await run(user.auth, { topic })
  const created = await postFeed(user.auth, { topic })
  expect(created.status).toBe(201)
  const atom = await readFeed((await created.json()).url)
  expect(atom.title).toBe(`Sextant: ${topic}`)
  expect(atom.entries).toHaveLength(1)
  for (const entry of atom.entries) {
    expect(entry.title).toContain('TOPIC ]]&gt; ]]&gt;&lt;b&gt;x&lt;/b&gt; &amp; &amp;amp;'.replace('TOPIC', TOPIC))
  }
})

function htmlOf(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

test('the topic and series pages offer a feed; the feeds page shows its address once and revokes it', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const { runId } = await run(user.auth, { topic: 'geothermal drilling', recurring: true })
  const topic = await app.db
    .selectFrom('topics')
    .select('id')
    .where('account_id', '=', user.account.id)
    .executeTakeFirstOrThrow()
  const view = await (await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).json()
  const seriesId: string = view.recurring.seriesId

  const topicPage = await (await app.fetch(`/dashboard/topics/${topic.id}`, { headers: { Cookie: cookie } })).text()
  expect(topicPage).toContain('action="/dashboard/feeds"')
  expect(topicPage).toContain(`name="topicId" value="${topic.id}"`)
  const seriesPage = await (await app.fetch('/dashboard/series', { headers: { Cookie: cookie } })).text()
  expect(seriesPage).toContain(`name="seriesId" value="${seriesId}"`)

  const made = await postForm(app.url, '/dashboard/feeds', { intent: 'create', topicId: topic.id }, cookie)
  expect(made.status).toBe(200)
  const url = /https:\/\/sextant\.example\/feeds\/[A-Za-z0-9_-]{43}\.atom/.exec(await made.text())?.[0]
  expect(url).toBeDefined()
  expect((await readFeed(url as string)).title).toBe('Sextant: geothermal drilling')

  // Another account's topic or series is no subject for a feed.
  const other = await createTestAccount(app.db)
  const otherCookie = await logIn(app.url, other.email, other.password)
  for (const subject of [{ topicId: topic.id }, { seriesId }] as Record<string, string>[]) {
    const refused = await postForm(app.url, '/dashboard/feeds', { intent: 'create', ...subject }, otherCookie)
    expect(refused.status).toBe(404)
  }

  const [feed] = (await (await app.fetch('/api/feeds', { headers: user.auth })).json()).feeds
  const revoked = await postForm(app.url, '/dashboard/feeds', { intent: 'revoke', feedId: feed.id }, cookie)
  expect(revoked.status).toBe(200)
  expect((await app.fetch(pathOf(url as string))).status).toBe(404)
})

test('feeds are capped per account, even in a burst, and listed a page at a time', async () => {
  const user = await createTestAccount(app.db)
  await run(user.auth, { topic: 'feeds cap topic' })
  const answers = await Promise.all(
    Array.from({ length: MAX_FEEDS_PER_ACCOUNT + 20 }, () => postFeed(user.auth, { topic: 'feeds cap topic' })),
  )
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_FEEDS_PER_ACCOUNT)
  expect(statuses.filter((status) => status === 409)).toHaveLength(20)

  const seen: string[] = []
  let cursor: string | null = null
  do {
    const query: string = cursor ? `?limit=30&cursor=${cursor}` : '?limit=30'
    const page = (await (await app.fetch(`/api/feeds${query}`, { headers: user.auth })).json()) as {
      feeds: Array<{ id: string }>
      nextCursor: string | null
    }
    expect(page.feeds.length).toBeLessThanOrEqual(30)
    seen.push(...page.feeds.map((feed) => feed.id))
    cursor = page.nextCursor
  } while (cursor)
  expect(new Set(seen).size).toBe(MAX_FEEDS_PER_ACCOUNT)
  expect((await app.fetch('/api/feeds?cursor=nonsense', { headers: user.auth })).status).toBe(400)
})
