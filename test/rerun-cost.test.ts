// A re-run costs what is new and carries the thread (issue 17), through the REST API against the
// exa-js and openai clients on stub servers: the open questions and queries of run 1 reach run 2's
// plan with today's and the last run's dates, run 2 searches from the last run's date, a deep re-run
// that finds little new skips its follow-up round, pages that only restate memory cost no synthesis,
// and an answer the model could not use still counts in the run's usage.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'

let stubs: ProviderApp
const documents: StubExaDocument[] = []
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
// The stub search finds a page by the words of its URL, title and text: the topic is in the URL.
const page = (slug: string, text: string, daysAgo = 1): StubExaDocument => ({
  url: `https://rerun.example/${slug}`,
  title: slug.replaceAll('-', ' '),
  publishedDate: day(daysAgo),
  text,
})

beforeAll(async () => {
  stubs = await startProviderApp({ documents, env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
})
afterAll(() => stubs.stop())

async function run(auth: Record<string, string>, brief: Parameters<typeof postBrief>[2]) {
  const { body } = await postBrief(stubs.app.fetch, auth, brief)
  const done = await waitForRun(stubs.app.fetch, auth, body.runId)
  expect(done.status).toBe('complete')
  return done
}

test("run 1's open questions and queries reach run 2's plan, with today's and the last run's dates", async () => {
  const { openai, exa } = stubs
  const user = await createTestAccount(stubs.app.db)
  const topic = 'Tidal barrages'
  documents.splice(0, documents.length, page('tidal-barrages-one', 'The Rance tidal barrage produced 500 GWh in 2025.'))
  openai.onPlan({ content: { queries: ['rance barrage output 2025', 'tidal barrage maintenance'] } })
  openai.onSynthesize({
    content: {
      headline: 'Rance output held at 500 GWh',
      findings: [
        {
          text: 'The Rance barrage produced 500 GWh in 2025.',
          quote: 'The Rance tidal barrage produced 500 GWh in 2025.',
          sourceIds: [1],
        },
      ],
      sections: null,
      implications: null,
      gaps: ['Who will fund the turbine refit after 2027?'],
    },
  })
  const first = await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  const today = new Date().toISOString().slice(0, 10)

  documents.push(
    page('tidal-barrages-two', 'The turbine refit of the Rance barrage will be funded by EDF, it said this week.'),
  )
  const plansBefore = openai.requests.filter((request) => request.kind === 'plan').length
  const searchesBefore = exa.requests.length
  await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  const [plan] = openai.requests.filter((request) => request.kind === 'plan').slice(plansBefore)
  const prompt = plan?.messages[1]?.content ?? ''
  expect(prompt).toContain(`Today: ${today}`)
  expect(prompt).toContain(`Last run on this topic: ${first.finishedAt?.slice(0, 10) ?? today}`)
  expect(prompt).toMatch(/<open_questions>\n- Who will fund the turbine refit after 2027\?\n<\/open_questions>/)
  expect(prompt).toMatch(/<past_queries>\n- rance barrage output 2025\n- tidal barrage maintenance\n<\/past_queries>/)
  expect(prompt).toMatch(/<recent_runs>\n- \d{4}-\d{2}-\d{2}: Rance output held at 500 GWh\n<\/recent_runs>/)
  // Timeframe "all", but a re-run searches from the last run's date less two days.
  const since = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
  for (const request of exa.requests.slice(searchesBefore)) {
    expect(request.body.startPublishedDate).toBe(since)
  }
})

test('a deep re-run that finds only pages memory has read skips its follow-up round and the synthesis', async () => {
  const { openai } = stubs
  const user = await createTestAccount(stubs.app.db)
  const topic = 'Quiet topic'
  documents.splice(
    0,
    documents.length,
    page('quiet-topic', 'Quiet topic pages say the same thing every week, it seems.'),
  )
  await run(user.auth, { topic, depth: 'deep', timeframe: 'all' })
  const before = openai.requests.length
  const second = await run(user.auth, { topic, depth: 'deep', timeframe: 'all' })
  const kinds = openai.requests.slice(before).map((request) => request.kind)
  expect(kinds).toEqual(['plan']) // no follow-up plan, no synthesis, no judge
  expect(second.report?.delta.summary).toMatch(/^Nothing new since/)
})

test('pages on new URLs that only restate what memory quoted cost no synthesis, and confirm it', async () => {
  const { openai } = stubs
  const user = await createTestAccount(stubs.app.db)
  const topic = 'Syndicated topic'
  const said = 'Wave farms off Portugal delivered 25 MW to the grid in October 2026.'
  documents.splice(0, documents.length, page('syndicated-topic-original', said))
  openai.onSynthesize({
    content: {
      headline: 'Wave farms deliver',
      findings: [{ text: said, quote: said, sourceIds: [1] }],
      sections: null,
      implications: null,
      gaps: [],
    },
  })
  await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  documents.splice(
    0,
    documents.length,
    page('syndicated-topic-copy-1', said),
    page('syndicated-topic-copy-2', `${said}\n\nShort line.`),
  )
  const before = openai.requests.length
  const second = await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  expect(openai.requests.slice(before).map((request) => request.kind)).not.toContain('synthesize')
  expect(second.report?.delta).toMatchObject({ newFindings: [], updated: [], contradicted: [] })
  expect(second.report?.delta.confirmed).toBeGreaterThanOrEqual(1)
  expect(second.report?.delta.summary).toMatch(/^Nothing new since .*1 claim confirmed/)
})

test('a page that restates memory in other words is not given to the model; the page with news is', async () => {
  const { openai } = stubs
  const user = await createTestAccount(stubs.app.db)
  const topic = 'Reworded topic'
  const said = 'Reworded topic: the Kelso tidal array delivered 31 MW to the grid in October 2026.'
  documents.splice(0, documents.length, page('reworded-topic-original', said))
  openai.onSynthesize({
    content: { headline: 'Array delivers', findings: [{ text: said, quote: said, sourceIds: [1] }], gaps: [] },
  })
  await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  const reworded = 'Reworded topic: in October 2026 the grid took 31 MW from the Kelso tidal array.'
  const news = 'Reworded topic: the Kelso tidal array will add a second turbine row by 2028, its operator said.'
  documents.splice(
    0,
    documents.length,
    page('reworded-topic-brief', `${reworded}\n\nBy continuing you accept our cookie policy.`),
    page('reworded-topic-news', news),
  )
  openai.onSynthesize({
    content: { headline: 'A second row', findings: [{ text: news, quote: news, sourceIds: [2] }], gaps: [] },
  })
  const before = openai.requests.length
  const second = await run(user.auth, { topic, depth: 'quick', timeframe: 'all' })
  const synthesis = openai.requests.slice(before).find((request) => request.kind === 'synthesize')
  expect(synthesis?.text).toContain('second turbine row')
  expect(synthesis?.text).not.toContain('the grid took 31 MW')
  expect(second.report?.delta.newFindings.map((finding) => finding.text)).toEqual([news])
  expect(second.report?.delta.confirmed).toBeGreaterThanOrEqual(1)
})

test('a plan the model answered unusably still counts in the run’s usage', async () => {
  const { openai } = stubs
  const user = await createTestAccount(stubs.app.db)
  documents.splice(
    0,
    documents.length,
    page('usage-topic', 'Usage pages exist to be read by the usage test, and they are.'),
  )
  // Unusable twice: the answer and the repair request's.
  const usage = { prompt_tokens: 50_000, completion_tokens: 700 }
  openai.onPlan({ content: 'this is not a plan', usage }, { content: 'nor is this', usage })
  const done = await run(user.auth, { topic: 'Usage topic', depth: 'quick' })
  expect(done.report?.generatedWith.plan).toBe('fallback')
  expect(done.report?.usage.inputTokens).toBeGreaterThanOrEqual(100_000)
  expect(done.report?.usage.outputTokens).toBeGreaterThanOrEqual(1400)
})
