// The topic pages over real runs against the sample corpus: list, detail, export, compare and
// search show the account's own memory, and nothing of anyone else's; and, on stub providers whose
// web changes between two runs, what a topic page shows of facts that replaced others.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { exportDisposition } from '#app/topics.server.ts'
import { exportTopicMarkdown } from '#server/topics/export.ts'
import { compareTopics } from '#server/topics/insights.ts'
import { loadTopicMemoryById } from '#server/topics/store.ts'
import { topicView } from '#server/topics/views.ts'
import type { BriefInput } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { AFTER, BEFORE, CHANGING_TOPIC, changingWeb } from '#test/support/changing-web.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

const PUBLIC_URL = 'https://sextant.example'
let app: TestApp
let stubs: ProviderApp
const web = changingWeb()
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '100', PUBLIC_URL } })
  stubs = await startProviderApp({ documents: web.documents })
})
afterAll(async () => {
  await app.stop()
  await stubs.stop()
})

type User = Awaited<ReturnType<typeof createTestAccount>>

async function research(user: User, topic: string, extra: Partial<BriefInput> = {}) {
  const { response, body } = await postBrief(app.fetch, user.auth, {
    topic,
    depth: 'quick',
    timeframe: 'all',
    ...extra,
  })
  expect(response.status).toBe(202)
  const run = await waitForRun(app.fetch, user.auth, body.runId)
  expect(run.status).toBe('complete')
  return run.runId
}

async function topicIdOf(user: User, topic: string): Promise<string> {
  const row = await app.db
    .selectFrom('topics')
    .select('id')
    .where('account_id', '=', user.account.id)
    .where('topic_hash', '=', app.memory.topicIndex.hash(user.account.id, topic))
    .executeTakeFirstOrThrow()
  return row.id
}

async function memoryOf(user: User, topicId: string) {
  const memory = await loadTopicMemoryById(app.memory, user.account.id, topicId)
  if (!memory) throw new Error(`no memory for ${topicId}`)
  return memory
}

/** An account with two researched battery topics (they read some of the same documents). */
async function researchedAccount() {
  const user = await createTestAccount(app.db)
  const sodiumRun = await research(user, 'Sodium-ion batteries')
  const solidRun = await research(user, 'solid-state batteries')
  const cookie = await logIn(app.url, user.email, user.password)
  const sodium = await topicIdOf(user, 'Sodium-ion batteries')
  const solid = await topicIdOf(user, 'solid-state batteries')
  return { user, cookie, sodium, solid, sodiumRun, solidRun }
}

function page(path: string, cookie?: string) {
  return app.fetch(path, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} })
}

/** The page's HTML without the empty comments React puts between adjacent text nodes. */
async function htmlOf(response: Response): Promise<string> {
  return (await response.text()).replaceAll('<!-- -->', '')
}

/**
 * Where the page links a source memory holds by its corpus name (https://corpus.local/<path>): its
 * page here, /corpus/<path>. Memory here is all sample corpus.
 */
function corpusPage(url: string): string {
  const { host, pathname } = new URL(url)
  expect(host).toBe('corpus.local')
  return `/corpus${pathname}`
}

/** Text as React writes it into HTML. */
function html(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;')
}

/** The number shown for a stat (`<dt>Facts</dt><dd>12</dd>`) after the given topic's link. */
function statAfter(body: string, marker: string, term: string): number {
  const rest = body.slice(body.indexOf(marker))
  const match = new RegExp(`>${term}</dt><dd[^>]*>(\\d+)<`).exec(rest)
  if (!match) throw new Error(`no ${term} after ${marker}`)
  return Number(match[1])
}

let alice: Awaited<ReturnType<typeof researchedAccount>>
beforeAll(async () => {
  alice = await researchedAccount()
}, 60_000)

test('the list shows each topic with its counts, most recently run first', async () => {
  const response = await page('/dashboard/topics', alice.cookie)
  expect(response.status).toBe(200)
  const body = await htmlOf(response)
  const sodiumLink = `href="/dashboard/topics/${alice.sodium}"`
  const solidLink = `href="/dashboard/topics/${alice.solid}"`
  expect(body).toContain('Sodium-ion batteries')
  expect(body.indexOf(solidLink)).toBeGreaterThan(0)
  expect(body.indexOf(solidLink)).toBeLessThan(body.indexOf(sodiumLink))

  const memory = await memoryOf(alice.user, alice.sodium)
  expect(memory.facts.length).toBeGreaterThan(0)
  expect(statAfter(body, sodiumLink, 'Runs')).toBe(1)
  expect(statAfter(body, sodiumLink, 'Facts')).toBe(memory.facts.length)
  expect(statAfter(body, sodiumLink, 'Sources')).toBe(memory.sources.length)
  expect(statAfter(body, sodiumLink, 'URLs read')).toBe(memory.urlsIndexed)
  // Both topics are offered for comparison.
  expect(body).toContain('action="/dashboard/topics/compare"')
  expect(body).toContain(`<option value="${alice.solid}">solid-state batteries</option>`)
})

test('an account without memory is told how topics appear, with a link to start a run', async () => {
  const user = await createTestAccount(app.db)
  const body = await (await page('/dashboard/topics', await logIn(app.url, user.email, user.password))).text()
  expect(body).toContain('No topics yet')
  expect(body).toContain('once a research run on it completes')
  expect(body).toContain('href="/dashboard"')
})

test('a topic page shows its facts with sources, its sources, what the latest run added, and its runs', async () => {
  const response = await page(`/dashboard/topics/${alice.sodium}`, alice.cookie)
  expect(response.status).toBe(200)
  const body = await htmlOf(response)
  const memory = await memoryOf(alice.user, alice.sodium)
  expect(body).toContain('<h1 class="text-2xl font-semibold tracking-tight break-words">Sodium-ion batteries</h1>')
  for (const fact of memory.facts) expect(body).toContain(html(fact.text))
  for (const source of memory.sources) expect(body).toContain(`href="${html(corpusPage(source.url))}"`)
  expect(body).toContain('What the latest run added')
  expect(body).toContain(`added ${memory.facts.length} facts`)
  // The run history links the run, and facts link the run that found them.
  expect(body).toContain(`href="/dashboard/runs/${alice.sodiumRun}"`)
  expect(body).toContain('Complete')
  expect(body).toContain(`href="/dashboard/topics/${alice.sodium}/export"`)
  expect(body).not.toContain(alice.solidRun)
})

test("a run's page links to its topic's memory, found by the topic's hash", async () => {
  const body = await htmlOf(await page(`/dashboard/runs/${alice.sodiumRun}`, alice.cookie))
  expect(body).toContain(`href="/dashboard/topics/${alice.sodium}"`)
  expect(body).not.toContain(`href="/dashboard/topics/${alice.solid}"`)
})

test('“Research this again” posts the latest brief to the dashboard and the new run adds to the memory', async () => {
  const user = await createTestAccount(app.db)
  await research(user, 'heat pumps in cold climates', { maxTokens: 1_000_000, maxCostDollars: 5.5 })
  const topicId = await topicIdOf(user, 'heat pumps in cold climates')
  const cookie = await logIn(app.url, user.email, user.password)
  const body = await htmlOf(await page(`/dashboard/topics/${topicId}`, cookie))
  const form = /<form[^>]* action="\/dashboard" method="post">([\s\S]*?)<\/form>/.exec(body)?.[1] ?? ''
  const fields = Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"\/>/g)].map((match) => [match[1], match[2]]),
  )
  expect(fields).toEqual({
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
    reportStyle: 'executive',
    maxTokens: '1000000',
    maxCostDollars: '5.5',
  })
  const again = await postForm(app.url, '/dashboard', fields as Record<string, string>, cookie)
  expect(again.status).toBe(302)
  const runId = /\/dashboard\/runs\/([\w-]+)$/.exec(again.headers.get('location') ?? '')?.[1] as string
  const rerun = await waitForRun(app.fetch, user.auth, runId)
  expect(rerun.status).toBe('complete')
  expect(rerun.brief).toMatchObject({ maxTokens: 1_000_000, maxCostDollars: 5.5 })
  expect((await memoryOf(user, topicId)).runCount).toBe(2)
  const after = await htmlOf(await page(`/dashboard/topics/${topicId}`, cookie))
  expect(after).toContain(`href="/dashboard/runs/${runId}"`)
})

test('the export is the topic as Markdown, downloaded under the topic’s name', async () => {
  const response = await page(`/dashboard/topics/${alice.sodium}/export`, alice.cookie)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
  expect(response.headers.get('content-disposition')).toBe('attachment; filename="sodium-ion-batteries.md"')
  expect(response.headers.get('cache-control')).toBe('private, no-store')
  const markdown = await response.text()
  expect(markdown).toMatch(/^# Sodium-ion batteries\n\nRuns: 1 · Facts: \d+/)
  expect(markdown).toContain('## Facts\n\n1. ')
  // Corpus sources by their pages on this server (their corpus names open nothing).
  expect(markdown).toBe(
    exportTopicMarkdown(topicView(await memoryOf(alice.user, alice.sodium), { kind: 'client', publicUrl: PUBLIC_URL })),
  )
  expect(markdown).toContain(`<${PUBLIC_URL}/corpus/batteries/`)
})

test('export file names are ASCII slugs, with the topic’s own letters as well when it has others', () => {
  expect(exportDisposition('  Café: déjà vu?  ')).toBe(
    `attachment; filename="cafe-deja-vu.md"; filename*=UTF-8''${encodeURIComponent('café-déjà-vu.md')}`,
  )
  expect(exportDisposition('電池の研究')).toBe(
    `attachment; filename="topic.md"; filename*=UTF-8''${encodeURIComponent('電池の研究.md')}`,
  )
  expect(exportDisposition('"; evil=1')).toBe('attachment; filename="evil-1.md"')
})

test('compare shows how much each topic holds and what they share', async () => {
  const response = await page(`/dashboard/topics/compare?a=${alice.sodium}&b=${alice.solid}`, alice.cookie)
  expect(response.status).toBe(200)
  const body = await htmlOf(response)
  const [a, b] = [await memoryOf(alice.user, alice.sodium), await memoryOf(alice.user, alice.solid)]
  const { summary } = compareTopics({ topic: a.topic, content: a }, { topic: b.topic, content: b })
  const cells = (row: string) =>
    [...(new RegExp(`>${row}</th>((?:<td[^>]*>\\d+</td>)+)`).exec(body)?.[1] ?? '').matchAll(/>(\d+)</g)].map((match) =>
      Number(match[1]),
    )
  expect(cells('Facts')).toEqual([summary.factsA, summary.factsB, summary.sharedFacts])
  expect(cells('Sources')).toEqual([summary.sourcesA, summary.sourcesB, summary.sharedSources])
  // The two battery topics read some of the same documents, so the shared lists have something in them.
  expect(summary.sharedSources).toBeGreaterThan(0)
  const shared = body.slice(body.indexOf('id="shared-sources-heading"'), body.indexOf('id="only-a-heading"'))
  const sharedUrl = a.sources.find((source) => b.sources.some((other) => other.url === source.url))?.url as string
  expect(shared).toContain(`href="${html(corpusPage(sharedUrl))}"`)
  expect(body).toContain('Only in “Sodium-ion batteries”')
  expect(body).toContain('Only in “solid-state batteries”')
  // The form keeps the two topics chosen.
  expect(body).toMatch(new RegExp(`<select[^>]*name="b"[^>]*>[\\s\\S]*?<option value="${alice.solid}" selected=""`))
})

test('compare without two valid, different topics explains what to do (400); unknown topics are 404', async () => {
  for (const [query, message] of [
    ['', 'Choose two topics to compare.'],
    [`?a=${alice.sodium}`, 'Choose two topics to compare.'],
    [`?a=${alice.sodium}&b=not-a-uuid`, 'Choose both topics from the lists.'],
    [`?a=${alice.sodium}&b=${alice.sodium}`, 'Choose two different topics.'],
  ] as const) {
    const response = await page(`/dashboard/topics/compare${query}`, alice.cookie)
    expect(response.status, query).toBe(400)
    const body = await htmlOf(response)
    expect(body).toContain(message)
    expect(body).toContain('name="a"')
  }
  const unknown = await page(
    `/dashboard/topics/compare?a=${alice.sodium}&b=00000000-0000-4000-8000-000000000000`,
    alice.cookie,
  )
  expect(unknown.status).toBe(404)
  expect(await htmlOf(unknown)).toContain('One of these topics has no memory for your account')
})

test('search finds a fact by a word in it, marks the word and links the fact’s topic', async () => {
  const memory = await memoryOf(alice.user, alice.solid)
  // A long word of a fact, which the other topic's facts are unlikely to share.
  const word = (memory.facts[0]?.text.match(/\p{L}{7,}/gu) ?? []).at(-1) as string
  expect(word).toBeDefined()
  const response = await page(`/dashboard/topics?${new URLSearchParams({ q: word.toUpperCase() })}`, alice.cookie)
  expect(response.status).toBe(200)
  const body = await htmlOf(response)
  expect(body).toMatch(/\d+ facts? match(es)? “/)
  expect(body).toMatch(new RegExp(`<mark[^>]*>${word}</mark>`, 'i'))
  expect(body).toContain(`matched ${word.toLowerCase()}`)
  const results = body.slice(body.indexOf('search-results-heading'))
  expect(results).toContain(`href="/dashboard/topics/${alice.solid}"`)
  expect(body).toContain(`value="${word.toUpperCase()}"`)

  const none = await htmlOf(await page('/dashboard/topics?q=zzyzxqwv', alice.cookie))
  expect(none).toContain('No facts match “zzyzxqwv”')
  const long = await page(`/dashboard/topics?q=${'a'.repeat(201)}`, alice.cookie)
  expect(long.status).toBe(400)
  expect(await htmlOf(long)).toContain('Keep the search to 200 characters or fewer.')
})

test('another account’s topic is not found on every page, and nothing of it shows', async () => {
  const bob = await createTestAccount(app.db)
  const cookie = await logIn(app.url, bob.email, bob.password)
  const secret = (await memoryOf(alice.user, alice.sodium)).facts[0]?.text as string
  for (const path of [
    `/dashboard/topics/${alice.sodium}`,
    `/dashboard/topics/${alice.sodium}/export`,
    `/dashboard/topics/compare?a=${alice.sodium}&b=${alice.solid}`,
  ]) {
    const response = await page(path, cookie)
    expect(response.status, path).toBe(404)
    const body = await htmlOf(response)
    expect(body).not.toContain('Sodium-ion')
    expect(body).not.toContain(html(secret))
  }
  const search = await htmlOf(await page('/dashboard/topics?q=sodium', cookie))
  expect(search).toContain('No topics yet')
  expect(search).not.toContain('Sodium-ion')
})

test('a malformed or expired topic id is 404, never a 500', async () => {
  for (const path of [
    '/dashboard/topics/not-a-uuid',
    '/dashboard/topics/not-a-uuid/export',
    `/dashboard/topics/${alice.sodium.slice(0, -1)}`,
    '/dashboard/topics/00000000-0000-4000-8000-000000000000',
  ]) {
    const response = await page(path, alice.cookie)
    expect(response.status, path).toBe(404)
  }
  const notFound = await htmlOf(await page('/dashboard/topics/not-a-uuid', alice.cookie))
  expect(notFound).toContain('Topic not found')
  expect(notFound).toContain('href="/dashboard/topics"')

  const user = await createTestAccount(app.db)
  await research(user, 'Model Context Protocol')
  const topicId = await topicIdOf(user, 'Model Context Protocol')
  const cookie = await logIn(app.url, user.email, user.password)
  expect((await page(`/dashboard/topics/${topicId}`, cookie)).status).toBe(200)
  await app.db
    .updateTable('topic_memory')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('topic_id', '=', topicId)
    .execute()
  expect((await page(`/dashboard/topics/${topicId}`, cookie)).status).toBe(404)
  expect((await page(`/dashboard/topics/${topicId}/export`, cookie)).status).toBe(404)
  expect(await loadTopicMemoryById(app.memory, user.account.id, topicId)).toBeUndefined()
})

test('without a session every topic page sends the visitor to log in, and back afterwards', async () => {
  for (const path of [
    '/dashboard/topics?q=sodium',
    `/dashboard/topics/${alice.sodium}`,
    `/dashboard/topics/${alice.sodium}/export`,
    `/dashboard/topics/compare?a=${alice.sodium}&b=${alice.solid}`,
  ]) {
    const response = await page(path)
    expect(response.status, path).toBe(302)
    expect(response.headers.get('location')).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`)
  }
})

test('after a second run, the topic page shows what it updated and contradicted old -> new, with quotes, and keeps the replaced facts as history', async () => {
  const user = await createTestAccount(stubs.app.db)
  await web.researchTwice(stubs.app, user)
  const topic = await stubs.app.db
    .selectFrom('topics')
    .select('id')
    .where('account_id', '=', user.account.id)
    .where('topic_hash', '=', stubs.app.memory.topicIndex.hash(user.account.id, CHANGING_TOPIC))
    .executeTakeFirstOrThrow()
  const cookie = await logIn(stubs.app.url, user.email, user.password)
  const response = await stubs.app.fetch(`/dashboard/topics/${topic.id}`, { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  // The markup only: the loader data the page hydrates from is not what a reader sees.
  const body = (await htmlOf(response)).replace(/<script[\s\S]*?<\/script>/g, '')
  const section = (from: string, to: string) => body.slice(body.indexOf(from), body.indexOf(to))

  const delta = section('id="delta-heading"', 'id="facts-heading"')
  expect(delta).toContain('added 3 facts and 4 sources.')
  expect(delta).toContain('1 new, 1 updated and 1 contradicted; it confirmed 1 fact memory already held.')
  const updated = section('id="delta-updated"', 'id="delta-contradicted"')
  expect(updated).toContain(`Was:</span> <del>${html(BEFORE.price.text)}</del>`)
  expect(updated).toContain(`href="${BEFORE.price.url}"`)
  expect(updated).toContain(`Now: </span>${html(AFTER.price.text)}</p>`)
  expect(updated).toContain(`“${html(AFTER.price.text)}”</blockquote>`)
  const contradicted = section('id="delta-contradicted"', 'id="delta-new"')
  expect(contradicted).toContain(`Previously:</span> ${html(BEFORE.plant.text)}`)
  expect(contradicted).toContain(`Now: </span>${html(AFTER.plant.text)}</p>`)
  expect(contradicted).toContain(`“${html(AFTER.plant.text)}”</blockquote>`)
  expect(section('id="delta-new"', 'id="facts-heading"')).toContain(`“${html(AFTER.recycling.text)}”</blockquote>`)

  // Current facts: the replaced ones only as the "was" of what replaced them.
  const facts = section('id="facts-heading"', 'id="history-heading"')
  expect(facts).toContain('(4, newest first)')
  expect(facts).not.toContain(`<p class="break-words text-slate-900">${html(BEFORE.price.text)}</p>`)
  expect(facts).not.toContain(`<p class="break-words text-slate-900">${html(BEFORE.plant.text)}</p>`)
  expect(facts).toContain(`<del>${html(BEFORE.price.text)}</del>`)
  // The fact both runs found was confirmed by the second.
  const cycles = facts.slice(facts.indexOf(`>${html(BEFORE.cycles.text)}</p>`))
  expect(cycles.slice(0, cycles.indexOf('</p></li>'))).toMatch(
    /First seen <time[^>]*>[^<]*<\/time> in <a[^>]*>this run<\/a> · last confirmed <time/,
  )

  const history = section('id="history-heading"', 'id="runs-heading"')
  expect(history).toContain('(2 replaced facts)')
  expect(history).toMatch(
    /<details[^>]*><summary[^>]*>What memory held before later runs updated or contradicted it<\/summary>/,
  )
  expect(history).toContain(`>${html(BEFORE.price.text)}</p>`)
  expect(history).toContain(`“${html(BEFORE.plant.text)}”</blockquote>`)
  expect(history).toMatch(new RegExp(`Updated <time[^>]*>[^<]*</time>:</span> ${regexText(html(AFTER.price.text))}`))
  expect(history).toMatch(/Contradicted <time/)

  // The export: quotes under the facts, the updated one beside what it replaced, the replaced ones as history.
  const markdown = await (
    await stubs.app.fetch(`/dashboard/topics/${topic.id}/export`, { headers: { Cookie: cookie } })
  ).text()
  expect(markdown).toMatch(
    new RegExp(
      `\\n\\d+\\. ${regexText(AFTER.price.text)} \\[\\d+\\]\\\\\\n   Was: ~~${regexText(BEFORE.price.text)}~~`,
    ),
  )
  expect(markdown).toContain(`   Previously: ${BEFORE.plant.text}`)
  expect(markdown).toContain(`   > ${AFTER.recycling.text}\n`)
  expect(markdown).toMatch(
    new RegExp(`## History\\n\\n.*\\n\\n- ${regexText(BEFORE.price.text)} \\[\\d+\\] — first seen`),
  )

  // The topics list counts what memory holds true now.
  const list = await htmlOf(await stubs.app.fetch('/dashboard/topics', { headers: { Cookie: cookie } }))
  expect(statAfter(list, `href="/dashboard/topics/${topic.id}"`, 'Facts')).toBe(4)
})

function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
