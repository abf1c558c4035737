// What changed, through the REST API, on a web that moves between two runs: a figure that changed
// is `updated` (with what memory held), a reversal is `contradicted`, an old fact said again is
// only counted as confirmed, a fact nobody reported before is new, and a claim whose quote is on no
// page is never shown. The stub model quotes each page's first sentence; its judge only recognises
// word-for-word repeats, so the engine's own rules have to find the rest.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { loadTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'
import { defaultReply } from '#test/support/stub-openai.ts'

const TOPIC = 'Sodium-ion batteries'
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()

function page(slug: string, text: string, daysAgo = 3): StubExaDocument {
  return {
    url: `https://news.example/${slug}`,
    title: `Sodium-ion batteries: ${slug}`,
    publishedDate: day(daysAgo),
    text,
  }
}

const EPOCH_ONE = [
  page('prices-2025', 'Sodium-ion battery cells from CATL cost $90/kWh at the end of 2025, a market survey found.'),
  page(
    'northvolt-plant',
    'Northvolt will open its Vasteras sodium-ion plant in 2027, the company said in a statement.',
  ),
  page('cycles', 'Independent tests showed Natron sodium-ion cells keeping 80 percent capacity after 5000 cycles.'),
]
const EPOCH_TWO = [
  page(
    'prices-update',
    'Sodium-ion battery cells from CATL cost $80/kWh at the end of 2025, a revised market survey found.',
    1,
  ),
  page(
    'northvolt-halt',
    'Northvolt will not open its Vasteras sodium-ion plant in 2027, the company said on Monday.',
    1,
  ),
  page(
    'cycles-again',
    'Independent tests showed Natron sodium-ion cells keeping 80 percent capacity after 5000 cycles.',
    1,
  ),
  page(
    'byd-recycling',
    'BYD opened a recycling line in Hefei that recovers sodium and hard carbon from spent cells.',
    1,
  ),
]
const INVENTED = 'Sodium-ion cells now power a third of all electric scooters sold in Europe.'

let stubs: ProviderApp
const documents: StubExaDocument[] = [...EPOCH_ONE]

beforeAll(async () => {
  stubs = await startProviderApp({ documents, env: { RUN_DEADLINE_QUICK_SECONDS: '30' } })
})
afterAll(() => stubs.stop())

test('a second run on a changed web reports the updated figure, the reversal, the new fact, and counts the repeat', async () => {
  const { app, openai } = stubs
  const user = await createTestAccount(app.db)
  const brief = { topic: TOPIC, depth: 'quick', timeframe: '30d' } as const

  const first = await waitForRun(app.fetch, user.auth, (await postBrief(app.fetch, user.auth, brief)).body.runId)
  expect(first.status).toBe('complete')
  expect(first.report?.delta.baseline).toBe(true)
  expect(first.report?.delta.newFindings).toHaveLength(3)
  // Each source shows the words that support its claim, and they are on the page.
  for (const source of first.report?.sources ?? []) {
    expect(EPOCH_ONE.find((doc) => doc.url === source.url)?.text).toContain(source.snippet)
  }

  // The web moves on: new pages only (the first run's are in the ledger and not read again).
  documents.splice(0, documents.length, ...EPOCH_TWO)
  // The model also invents a claim, with a quote that is on no page.
  openai.onSynthesize((request) => {
    const reply = defaultReply(request) as { content: { findings: unknown[] } }
    reply.content.findings.push({ text: INVENTED, quote: INVENTED, sourceIds: [1] })
    return reply
  })
  const started = await postBrief(app.fetch, user.auth, brief)
  const second = await waitForRun(app.fetch, user.auth, started.body.runId)
  expect(second.status).toBe('complete')
  const report = second.report
  if (!report) throw new Error('no report')
  const { delta } = report
  expect(delta.baseline).toBe(false)

  expect(delta.updated).toEqual([
    expect.objectContaining({
      text: EPOCH_TWO[0]?.text,
      quote: EPOCH_TWO[0]?.text,
      previous: expect.objectContaining({ text: EPOCH_ONE[0]?.text, urls: [EPOCH_ONE[0]?.url] }),
    }),
  ])
  expect(delta.contradicted).toEqual([
    expect.objectContaining({
      text: EPOCH_TWO[1]?.text,
      previous: expect.objectContaining({ text: EPOCH_ONE[1]?.text }),
    }),
  ])
  expect(delta.newFindings.map((finding) => finding.text)).toEqual([EPOCH_TWO[3]?.text])
  expect(delta.confirmed).toBe(1)
  expect(delta.summary.split('\n')[0]).toMatch(
    /^Since \d{4}-\d{2}-\d{2}: 1 new, 1 updated, 1 contradicted; 1 claim confirmed\.$/,
  )
  // The summary leads with what changed, the changed figure first.
  expect(report.summary).toMatch(
    /^## .+\n\n### What changed since \d{4}-\d{2}-\d{2}\n- \*\*Updated:\*\* Sodium-ion battery cells from CATL cost \$80\/kWh/,
  )

  // The invented claim is nowhere, and counted.
  expect(JSON.stringify(report)).not.toContain('electric scooters')
  expect(report.integrity).toEqual({ claims: 5, shown: 4, droppedUnsupported: 1, recited: 0, ownWords: 0, offTopic: 0 })
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), started.body.runId, 0)
  expect(events.find((event) => event.type === 'warning')?.data).toMatchObject({
    code: 'claims_unsupported',
    dropped: 1,
  })
  expectCitationsResolve(report)
  for (const change of [...delta.updated, ...delta.contradicted, ...delta.newFindings]) {
    for (const n of change.sources) {
      const url = report.sources.find((source) => source.n === n)?.url
      expect(EPOCH_TWO.find((doc) => doc.url === url)?.text).toContain(change.quote)
    }
  }

  // Memory now holds the new figure; the old one is history, and the next run confirms, not updates.
  const check = await (
    await app.fetch(`/api/memory/check?topic=${encodeURIComponent(TOPIC)}`, { headers: user.auth })
  ).json()
  expect(check.factsStored).toBe(4)
  documents.splice(
    0,
    documents.length,
    page('prices-again', 'Sodium-ion battery cells from CATL cost $80/kWh at the end of 2025, traders confirmed.', 0),
  )
  const third = await waitForRun(app.fetch, user.auth, (await postBrief(app.fetch, user.auth, brief)).body.runId)
  expect(third.report?.delta).toMatchObject({ newFindings: [], updated: [], contradicted: [], confirmed: 1 })
})

test('claims and facts are embedded with the configured model, and a failing embedding server is only a warning', async () => {
  const { app, openai } = stubs
  const user = await createTestAccount(app.db)
  const topic = 'Embedded sodium'
  documents.splice(
    0,
    documents.length,
    page('embedded', 'Sodium-ion cells from HiNa passed 6000 cycles in a field trial.'),
  )
  const first = await waitForRun(
    app.fetch,
    user.auth,
    (await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })).body.runId,
  )
  expect(first.status).toBe('complete')
  const embedCalls = openai.requests.filter((request) => request.kind === 'embed')
  expect(embedCalls.at(-1)?.model).toBe('text-embedding-3-small')
  const memory = await loadTopicMemory(app.memory, user.account.id, topic)
  expect(memory?.vectorModel).toBe('text-embedding-3-small')
  expect(memory?.facts.every((fact) => fact.vector && Buffer.from(fact.vector, 'base64').length === 256)).toBe(true)

  // The embedding server fails every attempt: the run completes, matched by words, and says so. (The
  // page is from yesterday: a re-run searches from the last run's date less two days.)
  documents.splice(
    0,
    documents.length,
    page('embedded-2', 'Sodium-ion cells from HiNa passed 7000 cycles in a field trial.', 1),
  )
  openai.onEmbed(...Array.from({ length: 3 }, () => ({ status: 500 })))
  const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
  const second = await waitForRun(app.fetch, user.auth, body.runId)
  expect(second.status).toBe('complete')
  expect(second.report?.delta.updated).toHaveLength(1)
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
  expect(events.map((event) => event.data.code)).toContain('embeddings_unavailable')
})

/** About heat pumps: it shares one word ("trials") with a topic on sodium-ion cell trials. */
const HEAT_PUMP_TRIALS: StubExaDocument = {
  url: 'https://news.example/heat-pumps/cold-week',
  title: 'Heat pumps kept homes warm through a cold week',
  publishedDate: day(1),
  text: 'Heat pumps kept 310,000 homes warm in winter trials, the grid operator said on Monday.',
}

/** A new account's quick run on `topic`, over exactly these pages. */
async function runOver(topic: string, pages: StubExaDocument[]) {
  const { app } = stubs
  const user = await createTestAccount(app.db)
  documents.splice(0, documents.length, ...pages)
  const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
  const run = await waitForRun(app.fetch, user.auth, body.runId)
  expect(run.status).toBe('complete')
  const report = run.report
  if (!report) throw new Error('no report')
  return { app, user, runId: body.runId, report }
}

test('a claim quoting only a page about something else is not shown, and the run says so', async () => {
  // The stub model quotes every page's first sentence, as a model that ignores the prompt's rule would.
  const hina = page('hina-cycles', 'Sodium-ion cells from HiNa passed 6000 cycles in a field trial this autumn.', 1)
  const { app, runId, report } = await runOver('sodium-ion cell trials', [hina, HEAT_PUMP_TRIALS])
  expect(report.delta.newFindings.map((finding) => finding.text)).toEqual([hina.text])
  expect(JSON.stringify(report)).not.toContain('310,000 homes')
  expect(report.integrity).toMatchObject({ claims: 2, shown: 1, droppedUnsupported: 0, offTopic: 1 })
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), runId, 0)
  expect(events.find((event) => event.data.code === 'claims_off_topic')?.data).toMatchObject({ dropped: 1 })
})

test('a page Exa found by meaning counts though it holds no word of the topic (a topic in another language)', async () => {
  // Found for "Festkörperakkus latest developments": Exa searches by meaning, so an English page on
  // solid-state cells is about the German topic, whichever of the query's words it shares.
  const english = {
    url: 'https://news.example/solid-state/cycles',
    title: 'Solid-state cells pass 1,000 cycles',
    publishedDate: day(1),
    text: 'Solid-state cells from QuantumScape passed 1,000 cycles in the latest trial, the company said.',
  }
  const { report } = await runOver('Festkörperakkus', [english])
  expect(report.delta.newFindings.map((finding) => finding.text)).toEqual([english.text])
  expect(report.integrity).toMatchObject({ shown: 1, offTopic: 0 })
})

test('a run whose pages are all about something else asks no model to write, and says why', async () => {
  const { openai } = stubs
  const topic = 'sodium-ion cell trials'
  const asked = openai.requests.filter((request) => request.kind === 'synthesize').length
  const { app, user, runId, report } = await runOver(topic, [HEAT_PUMP_TRIALS])
  expect(openai.requests.filter((request) => request.kind === 'synthesize').length).toBe(asked)
  const headline = `No page read in this run is about ${topic}`
  expect(report.summary.split('\n')[0]).toBe(`## ${headline}`)
  expect(report.sources).toEqual([])
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), runId, 0)
  expect(events.find((event) => event.data.code === 'nothing_on_topic')?.data.message).toMatch(/no model was paid/)
  const memory = await loadTopicMemory(app.memory, user.account.id, topic)
  expect(memory?.runs.at(-1)?.summary).toBe(headline)
})

test("a run none of whose claims is shown is not headed by the model's words, here or in memory", async () => {
  const { openai } = stubs
  const topic = 'sodium-ion cell trials'
  // The model's one claim quotes what its page does not say.
  openai.onSynthesize((request) => {
    const reply = defaultReply(request) as { content: { headline: string; findings: unknown[] } }
    reply.content.headline = 'HiNa cells now last 20,000 cycles'
    reply.content.findings = [{ text: 'HiNa cells last 20,000 cycles.', quote: 'lasted 20,000 cycles', sourceIds: [1] }]
    return reply
  })
  const hina = page('hina-trial', 'Sodium-ion cells from HiNa passed 6000 cycles in a field trial this autumn.', 1)
  const { app, user, report } = await runOver(topic, [hina])
  const headline = "This run's one claim could not be shown: the pages it cited do not support it"
  expect(report.summary.split('\n')[0]).toBe(`## ${headline}`)
  expect(JSON.stringify(report)).not.toContain('20,000')
  expect(report.integrity).toMatchObject({ claims: 1, shown: 0, droppedUnsupported: 1 })
  const memory = await loadTopicMemory(app.memory, user.account.id, topic)
  expect(memory?.runs.at(-1)?.summary).toBe(headline)
})
