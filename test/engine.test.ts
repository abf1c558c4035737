// The research engine end to end: the REST API, the job, the real exa-js and openai clients
// against stub servers that speak their wire formats, and topic memory across runs.

import { createHash } from 'node:crypto'
import http from 'node:http'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec, parseKeyRing } from '#server/crypto/key-ring.ts'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { contributedFact } from '#server/topics/facts.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import { saveTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import type { TestApp } from '#test/support/app.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { expectRunIntegrity } from '#test/support/run-integrity.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'
import type { StubExa } from '#test/support/stub-exa.ts'
import type { StubOpenAi } from '#test/support/stub-openai.ts'

let stubs: ProviderApp
let exa: StubExa
let openai: StubOpenAi
let app: TestApp

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
const documents = [
  {
    url: 'https://grid.example/sodium-utility',
    title: 'Utility switches on sodium-ion storage',
    publishedDate: day(2),
    text: 'A utility switched on a 100 MWh sodium-ion battery for grid storage, citing costs 20 percent below LFP.',
  },
  {
    url: 'https://lab.example/sodium-cycles',
    title: 'Sodium cells pass 5000 cycles',
    publishedDate: day(3),
    text: 'Independent tests showed sodium-ion cells keeping 80 percent capacity after 5000 cycles at 25 degrees.',
  },
  {
    url: 'https://market.example/sodium-prices',
    title: 'Sodium-ion pack prices fall',
    publishedDate: day(5),
    text: 'Sodium-ion battery pack prices fell to 60 dollars per kWh in the third quarter according to a market survey.',
  },
]

beforeAll(async () => {
  // A quick run's deadline well beyond what its waits take (eight 429s with Retry-After: 1 s take
  // about 4 s alone, and 15 s on a two-core machine running the rest of the suite): a run that
  // should complete must not fail by the machine's speed. Each provider attempt still has 2 s.
  stubs = await startProviderApp({
    documents,
    env: { PROVIDER_TIMEOUT_SECONDS: '2', RUN_DEADLINE_QUICK_SECONDS: '45' },
  })
  ;({ app, exa, openai } = stubs)
})
afterAll(() => stubs.stop())

test('a first run builds a baseline; a second run reads nothing from the ledger and reports only what is new', async () => {
  const user = await createTestAccount(app.db)
  const brief = { topic: 'Sodium-ion batteries', depth: 'quick', timeframe: '30d' } as const

  const first = await postBrief(app.fetch, user.auth, brief)
  expect(first.response.status).toBe(202)
  expect(first.response.headers.get('location')).toBe(`/api/briefs/${first.body.runId}`)
  expect(first.body).toEqual({ runId: expect.any(String), status: 'running', hasMemory: false, runCount: 0 })
  const done = await waitForRun(app.fetch, user.auth, first.body.runId)
  expect(done.status).toBe('complete')
  const report = done.report
  if (!report) throw new Error('no report')
  expect(report.delta.baseline).toBe(true)
  expect(report.sources.length).toBeGreaterThan(0)
  expect(report.generatedWith).toMatchObject({ search: 'exa', synthesisKind: 'model', plan: 'model', judge: 'model' })
  expect(report.usage.searchCalls).toBeGreaterThan(0)
  expect(report.usage.inputTokens).toBeGreaterThan(0)
  expectCitationsResolve(report)
  const searched = exa.requests.at(-1)?.body
  expect(searched?.startPublishedDate?.slice(0, 10)).toBe(day(30).slice(0, 10))

  const memory = await (
    await app.fetch(`/api/memory/check?topic=${encodeURIComponent('sodium-ion BATTERIES')}`, { headers: user.auth })
  ).json()
  expect(memory).toMatchObject({ runCount: 1, urlsIndexed: report.sources.length })

  // One new page appears; the second run must not send any page it already read to synthesis.
  documents.push({
    url: 'https://news.example/sodium-truck',
    title: 'First sodium-ion truck fleet',
    publishedDate: day(1),
    text: 'A logistics firm put 40 sodium-ion electric trucks into service this week.',
  })
  const synthesesBefore = openai.requests.filter((request) => request.kind === 'synthesize').length
  const second = await postBrief(app.fetch, user.auth, brief)
  expect(second.body).toMatchObject({ hasMemory: true, runCount: 1 })
  const again = await waitForRun(app.fetch, user.auth, second.body.runId)
  expect(again.status).toBe('complete')
  const secondReport = again.report
  if (!secondReport) throw new Error('no report')
  const synthesis = openai.requests.filter((request) => request.kind === 'synthesize').slice(synthesesBefore)
  expect(synthesis).toHaveLength(1)
  for (const source of report.sources) expect(synthesis[0]?.text).not.toContain(source.url)
  expect(synthesis[0]?.text).toContain('https://news.example/sodium-truck')
  expect(secondReport.delta.baseline).toBe(false)
  expect(secondReport.delta.since).toBe(memory.lastRunAt)
  expect(secondReport.sources.map((source) => source.url)).toEqual(['https://news.example/sodium-truck'])
  expect(secondReport.delta.newFindings.length).toBeGreaterThan(0)
  expectCitationsResolve(secondReport)
})

test("a run's memory steps have no boundary of their own: loading is written with the plan's start, saving with the end", async () => {
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'Last step', depth: 'quick' })
  expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
  const rows = await sql<{ type: string; step: string | null; at: string }>`
    select type, step, created_at::text as at from run_events where run_id = ${body.runId} order by id`.execute(app.db)
  const first = rows.rows.slice(0, 4)
  expect(first.map((row) => `${row.type} ${row.step ?? ''}`.trim())).toEqual([
    'run_started',
    'step_started load_memory',
    'step_finished load_memory',
    'step_started plan',
  ])
  // Loading memory reads and pays for nothing: its start and end are written with the plan's start.
  expect(new Set(first.slice(1).map((row) => row.at)).size).toBe(1)
  const last = rows.rows.slice(-4)
  expect(last.map((row) => `${row.type} ${row.step ?? ''}`.trim())).toEqual([
    'step_finished synthesize',
    'step_started save_memory',
    'step_finished save_memory',
    'complete',
  ])
  // One transaction: the same now(), to the microsecond. A boundary before the save would store a
  // checkpoint of the whole run (its pages and the synthesis) that the end then clears.
  expect(new Set(last.map((row) => row.at)).size).toBe(1)
  // The memory row and the ended run were written by the same transaction.
  const written = await sql<{ run: string; memory: string }>`
    select runs.xmin::text as run, topic_memory.xmin::text as memory
    from runs join topics on topics.account_id = runs.account_id and topics.topic_hash = runs.topic_hash
    join topic_memory on topic_memory.topic_id = topics.id
    where runs.id = ${body.runId}`.execute(app.db)
  expect(written.rows).toHaveLength(1)
  expect(written.rows[0]?.memory).toBe(written.rows[0]?.run)
  await expectRunIntegrity(app.db, body.runId)
})

test("a complete run's view is sent as kept, with an ETag of its body, and a matching If-None-Match gets 304", async () => {
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'Kept views', depth: 'quick' })
  expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
  const read = async (headers: Record<string, string> = {}) =>
    app.fetch(`/api/briefs/${body.runId}`, { headers: { ...user.auth, ...headers } })
  const first = await read()
  const second = await read()
  const text = await first.text()
  expect(await second.text()).toBe(text)
  expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8')
  // The ETag Express makes (the etag package, weak): the length in hex and the body's SHA-1.
  const sha1 = createHash('sha1').update(text, 'utf8').digest('base64').slice(0, 27)
  const etag = `W/"${Buffer.byteLength(text).toString(16)}-${sha1}"`
  expect(first.headers.get('etag')).toBe(etag)
  expect(second.headers.get('etag')).toBe(etag)
  // Not with fetch: it adds Cache-Control: no-cache to a conditional request, which is never fresh.
  const revalidated = await new Promise<number | undefined>((resolve, reject) => {
    const url = new URL(`/api/briefs/${body.runId}`, app.url)
    http
      .get(url, { headers: { ...user.auth, 'if-none-match': etag } }, (response) => {
        response.resume()
        resolve(response.statusCode)
      })
      .on('error', reject)
  })
  expect(revalidated).toBe(304)
  expect((JSON.parse(text) as { status: string }).status).toBe('complete')
})

test('a plan answer that is not JSON, twice, falls back to the deterministic plan and the run completes', async () => {
  const user = await createTestAccount(app.db)
  // The second answer is to the repair request, which shows the model its first.
  openai.onPlan(
    { content: 'Sure! Here are some queries: sodium, batteries' },
    { content: 'Of course: sodium batteries, grid costs' },
  )
  const { body } = await postBrief(app.fetch, user.auth, {
    topic: 'Grid batteries',
    depth: 'quick',
    objective: 'costs',
  })
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  expect(done.report?.generatedWith.plan).toBe('fallback')
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
  expect(events.some((event) => event.type === 'warning' && event.data.code === 'fallback_plan')).toBe(true)
})

// A step begins while its boundary is written and pays for nothing until the boundary says the run
// goes on: cancelled while one step's calls are in flight, a run makes no call of the next.
test.each([
  { during: 'plan', slow: { openai: { latencyMs: 700 } }, started: ['load_memory', 'plan'] },
  { during: 'search', slow: { exa: { latencyMs: 700 } }, started: ['load_memory', 'plan', 'search'] },
])(
  'a run cancelled while it is in its $during step starts no further step',
  async ({ during, slow: latency, started }) => {
    const slowStubs = await startProviderApp({ documents, ...latency })
    const { app: slow, exa: search, openai: model } = slowStubs
    try {
      const user = await createTestAccount(slow.db)
      const { body } = await postBrief(slow.fetch, user.auth, { topic: `Cancelled while in ${during}`, depth: 'quick' })
      const inFlight = during === 'plan' ? model.requests : search.requests
      const served = during === 'plan' ? model.served : search.served
      await waitUntil(() => inFlight.length > 0)
      const cancel = await slow.fetch(`/api/briefs/${body.runId}`, { method: 'DELETE', headers: user.auth })
      expect(cancel.status).toBe(200)
      // The step's answers arrive after the cancel; the engine saves them and must stop there.
      const asked = inFlight.length
      await waitUntil(() => served.length >= asked)
      await new Promise((resolve) => setTimeout(resolve, 500))
      if (during === 'plan') expect(search.requests).toEqual([])
      expect(model.requests.map((request) => request.kind)).toEqual(['plan'])
      const steps = await slow.db
        .selectFrom('run_events')
        .select('step')
        .where('run_id', '=', body.runId)
        .where('type', '=', 'step_started')
        .orderBy('id')
        .execute()
      expect(steps.map((event) => event.step)).toEqual(started)
      expect((await waitForRun(slow.fetch, user.auth, body.runId)).status).toBe('cancelled')
      // Nor does it record the step as finished after the run ended, or keep its checkpoint.
      await expectRunIntegrity(slow.db, body.runId)
    } finally {
      await slowStubs.stop()
    }
  },
)

/**
 * A trigger that makes the writes `condition` matches (in the account's runs) wait on advisory lock
 * `lock` while a test holds it; returns its removal.
 */
async function holdWrites(
  name: string,
  on: 'insert on run_events' | 'update on runs',
  condition: string,
  lock: number,
): Promise<() => Promise<void>> {
  const fn = sql.raw(name)
  await sql`create function ${fn}() returns trigger language plpgsql as $$
    begin
      if ${sql.raw(condition)} then
        perform pg_advisory_xact_lock(${sql.lit(lock)});
      end if;
      return new;
    end $$`.execute(app.db)
  await sql`create trigger ${fn} before ${sql.raw(on)} for each row execute function ${fn}()`.execute(app.db)
  return async () => {
    await sql`drop trigger ${fn} on ${sql.raw(on.split(' on ')[1] as string)}`.execute(app.db)
    await sql`drop function ${fn}()`.execute(app.db)
  }
}

/** Runs `look` with advisory lock `lock` held by a connection of its own, and releases it however `look` ends. */
function withLockHeld<T>(lock: number, look: () => Promise<T>): Promise<T> {
  return app.db.connection().execute(async (holder) => {
    await sql`select pg_advisory_lock(${lock})`.execute(holder)
    try {
      return await look()
    } finally {
      await sql`select pg_advisory_unlock(${lock})`.execute(holder)
    }
  })
}

/** The condition that a run_events row belongs to one of the account's runs (its id is checked first). */
function ofAccount(account: string): string {
  expect(account).toMatch(/^[0-9a-f-]{36}$/) // spliced into the trigger
  return `exists (select 1 from runs where id = new.run_id and account_id = '${account}')`
}

// The other half of the rule: while a step's boundary is still being written, its paid call waits.
// A trigger holds the boundary's update on an advisory lock the test holds until it has looked: the
// model must not be asked meanwhile, however slow the machine.
test.each(['plan', 'synthesize'] as const)('the %s call waits until its step boundary is written', async (step) => {
  const user = await createTestAccount(app.db)
  const account = user.account.id
  expect(account).toMatch(/^[0-9a-f-]{36}$/) // spliced into the trigger below
  const lock = step === 'plan' ? 21_001 : 21_002
  const release = await holdWrites(
    `hold_${step}_boundary`,
    'update on runs',
    `new.account_id = '${account}' and new.current_step = '${step}' and old.current_step is distinct from new.current_step`,
    lock,
  )
  try {
    const topic = `Boundary before the ${step}`
    const asked = () => openai.requests.filter((request) => request.kind === step && request.text.includes(topic))
    const { body } = await withLockHeld(lock, async () => {
      const started = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
      // The boundary's update waits on the lock; the step has begun beside it.
      await waitUntil(
        async () =>
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_locks
              where locktype = 'advisory' and objid = ${lock} and not granted`.execute(app.db)
          ).rows[0]?.n === 1,
        10_000,
      )
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(asked()).toEqual([])
      return started
    })
    expect((await waitForRun(app.fetch, user.auth, body.runId)).status).toBe('complete')
    expect(asked()).toHaveLength(1)
  } finally {
    await release()
  }
})

// A round's events are written behind its searches, not waited for one by one: a search that
// answers hands its slot on at once. The paid call after the round, the follow-up plan, waits for
// them. A trigger holds every query_done insert of the test's account on an advisory lock.
test("a round's searches go on while their events are written; the follow-up plan waits for them", async () => {
  const user = await createTestAccount(app.db)
  const lock = 21_003
  const condition = `new.type = 'query_done' and ${ofAccount(user.account.id)}`
  const release = await holdWrites('hold_query_done', 'insert on run_events', condition, lock)
  try {
    const topic = 'Held progress events'
    // Six queries for round one: three at a time, so three of them need a slot freed by an answer.
    openai.onPlan({ content: { queries: [1, 2, 3, 4, 5, 6].map((n) => `${topic} angle ${n}`) } })
    const searched = () => exa.requests.filter((request) => request.body?.query?.startsWith(`${topic} angle`))
    const plans = () => openai.requests.filter((request) => request.kind === 'plan' && request.text.includes(topic))
    const { body } = await withLockHeld(lock, async () => {
      const started = await postBrief(app.fetch, user.auth, { topic, depth: 'deep' })
      // Every search of round one is made while the first answer's event is still held.
      await waitUntil(() => searched().length === 6)
      await new Promise((resolve) => setTimeout(resolve, 400))
      expect(plans()).toHaveLength(1)
      return started
    })
    const done = await waitForRun(app.fetch, user.auth, body.runId)
    expect(done.status).toBe('complete')
    expect(plans()).toHaveLength(2)
    const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
    const roundOne = events.filter((event) => event.type === 'query_done').slice(0, 6)
    expect(roundOne.map((event) => event.data.query)).toEqual(
      expect.arrayContaining(searched().map((request) => request.body?.query)),
    )
    // Written behind the searches, still in order: every query_done before the step's end.
    const order = events.map((event) => `${event.type} ${event.step}`)
    expect(order.lastIndexOf('query_done search')).toBeLessThan(order.indexOf('step_finished search'))
    await expectRunIntegrity(app.db, body.runId)
  } finally {
    await release()
  }
})

test('a memory save that fails leaves the run complete, with a warning', async () => {
  const user = await createTestAccount(app.db)
  // Memory sealed with a key the app does not have: unreadable, so the save must not overwrite it.
  const foreign = { ...app.memory, column: topicMemoryColumn(parseKeyRing(generateKeySpec('elsewhere'))) }
  await saveTopicMemory(foreign, user.account.id, 'Locked topic', {
    runId: 'old',
    at: new Date(),
    facts: [contributedFact('sealed elsewhere', [])],
    sources: [],
    urlsRead: [],
  })
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'Locked topic', depth: 'quick' })
  // The start opens nothing, but memory sealed with a key this server lacks is no memory to it.
  expect(body).toMatchObject({ hasMemory: false, runCount: 0 })
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
  expect(events.some((event) => event.type === 'warning' && event.data.code === 'memory_save_failed')).toBe(true)
})

test('a search provider that is down fails the run cleanly, with an error a user can act on', async () => {
  const user = await createTestAccount(app.db)
  exa.setBehaviour('server-error')
  try {
    const started = performance.now()
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'Provider outage', depth: 'quick' })
    const done = await waitForRun(app.fetch, user.auth, body.runId)
    expect(done.status).toBe('failed')
    expect(done.report).toBeUndefined()
    expect(done.error).toMatchObject({
      code: expect.stringMatching(/unavailable/),
      message: expect.stringMatching(/exa/i),
    })
    expect(performance.now() - started).toBeLessThan(15_000)
  } finally {
    exa.setBehaviour('answer')
  }
})

test("a search provider's 429s, more than a call's attempts, pause it and are shown as the step's detail; the run completes", async () => {
  const user = await createTestAccount(app.db)
  // The first eight searches are refused with Retry-After: 1, whichever query sends them.
  exa.setBehaviour('rate-limit', { times: 8, retryAfterSeconds: 1 })
  try {
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'Rate limited batteries', depth: 'quick' })
    const done = await waitForRun(app.fetch, user.auth, body.runId, 60_000)
    // The whole run on failure, so its error says why.
    expect(done).toMatchObject({ status: 'complete' })
    const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
    const warnings = events.filter((event) => event.type === 'warning')
    expect(warnings.some((event) => event.step === 'search' && event.data.code === 'rate_limited')).toBe(true)
    expect(warnings.find((event) => event.data.code === 'rate_limited')?.data.message).toMatch(
      /Waiting \d+ s for exa's rate limit/,
    )
    // No query gave up: the run waited for the provider instead.
    expect(warnings.some((event) => event.data.code === 'query_failed')).toBe(false)
  } finally {
    exa.setBehaviour('answer')
  }
})

// A step's events are written behind it; a step that fails waits for them before the run ends, or
// those still queued would find the run ended and be dropped. A trigger holds the first query_failed
// warning until every search has failed and the step has given up.
test('a step that fails tells every event it made before the run ends', async () => {
  const user = await createTestAccount(app.db)
  const lock = 21_004
  const condition = `new.type = 'warning' and ${ofAccount(user.account.id)}`
  const release = await holdWrites('hold_warnings', 'insert on run_events', condition, lock)
  exa.setBehaviour('server-error')
  try {
    const topic = 'Held failures'
    const failed = () => exa.requests.filter((request) => request.body?.query?.startsWith(topic))
    const { body } = await withLockHeld(lock, async () => {
      const started = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
      // Three queries, three attempts each; then the step gives up.
      await waitUntil(() => failed().length === 9)
      await new Promise((resolve) => setTimeout(resolve, 500))
      return started
    })
    const done = await waitForRun(app.fetch, user.auth, body.runId)
    expect(done.status).toBe('failed')
    const events = await readRunEvents(app.db, eventDataColumn(app.ring), body.runId, 0)
    expect(events.filter((event) => event.type === 'warning' && event.data.code === 'query_failed')).toHaveLength(3)
    await expectRunIntegrity(app.db, body.runId)
  } finally {
    exa.setBehaviour('answer')
    await release()
  }
})

test('a search provider that never answers fails the run by its deadline', async () => {
  const user = await createTestAccount(app.db)
  exa.setBehaviour('hang')
  try {
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'Hanging provider', depth: 'quick' })
    const done = await waitForRun(app.fetch, user.auth, body.runId, 25_000)
    expect(done.status).toBe('failed')
    expect(done.error?.code).toMatch(/unavailable|deadline_exceeded/)
  } finally {
    exa.setBehaviour('answer')
  }
})

test('a deep run plans twice (a follow-up round on the gaps) and searches the follow-up queries too', async () => {
  const user = await createTestAccount(app.db)
  const plansBefore = openai.requests.filter((request) => request.kind === 'plan').length
  const searchesBefore = exa.requests.length
  openai.onPlan(
    { content: { queries: ['deep topic costs', 'deep topic safety'] } },
    { content: { queries: ['deep topic recycling', 'deep topic costs'] } },
  )
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'Deep topic', depth: 'deep', focus: 'costs, safety' })
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  const plans = openai.requests.filter((request) => request.kind === 'plan').slice(plansBefore)
  expect(plans).toHaveLength(2)
  expect(plans[1]?.text).toContain('deep topic safety') // the follow-up sees what round one searched
  // and what round one's pages say, not their titles alone
  expect(plans[1]?.text).toMatch(/Pages:\n- Utility switches on sodium-ion storage: [^\n]*costs 20 percent below LFP/)
  const searched = exa.requests.slice(searchesBefore).map((request) => request.body.query)
  expect(searched).toEqual(expect.arrayContaining(['deep topic costs', 'deep topic safety', 'deep topic recycling']))
  expect(searched.filter((query) => query === 'deep topic costs')).toHaveLength(1) // not asked twice
  expect(exa.requests.at(-1)?.body.contents).toMatchObject({ text: { maxCharacters: 6000 } })
})
