// The runs API over the offline default providers (sample corpus, extractive synthesizer).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream } from '#test/support/sse-client.ts'

let app: TestApp
let webOnly: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
  // No worker: runs stay running, so cancellation and limits can be observed without racing one.
  webOnly = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '3' } })
})
afterAll(async () => {
  await app.stop()
  await webOnly.stop()
})

test('a brief with no keys configured completes from the sample corpus, extractive and labelled', async () => {
  const user = await createTestAccount(app.db)
  const { response, body } = await postBrief(app.fetch, user.auth, {
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
  })
  expect(response.status).toBe(202)
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done).toMatchObject({ status: 'complete', currentStep: null })
  const report = done.report
  if (!report) throw new Error('no report')
  expect(report.generatedWith).toEqual({
    synthesis: 'extractive (no language model)',
    synthesisKind: 'extractive',
    search: 'the sample corpus bundled with Sextant (invented articles, not the web)',
    plan: 'fallback',
    corpus: 'sample',
    // No model: the rules alone compare its claims with memory, and what changed will say so.
    judge: 'rules',
  })
  expect(report.notice).toMatch(/invented articles/)
  expect(report.sources.length).toBeGreaterThan(0)
  // Each source is an invented sample article, linked to its page here (its corpus name opens nothing).
  expect(report.sources.every((source) => source.corpus === 'sample')).toBe(true)
  expect(report.sources.every((source) => new URL(source.url).pathname.startsWith('/corpus/heat-pumps/'))).toBe(true)
  expect(report.delta.baseline).toBe(true)
  expectCitationsResolve(report)
})

test('invalid briefs are 400 with each bad field named', async () => {
  const user = await createTestAccount(app.db)
  const cases: Array<[unknown, string]> = [
    [{}, 'topic'],
    [{ topic: 'x'.repeat(501) }, 'topic'],
    [{ topic: 'ok', depth: 'medium' }, 'depth'],
    [{ topic: 'ok', timeframe: '1y' }, 'timeframe'],
    [{ topic: 'ok', recurring: 'yes' }, 'recurring'],
    [{ topic: 'ok', frameworkId: 'astrology' }, 'frameworkId'],
    [{ topic: 'ok', reportStyle: 'framework' }, 'frameworkId'],
    [{ topic: 'ok', source: 'carrier-pigeon' }, 'source'],
    [{ topic: 'ok', maxTokens: 0 }, 'maxTokens'],
    [{ topic: 'ok', maxCostDollars: 'abc' }, 'maxCostDollars'],
    [{ topic: 'ok', reportstyle: 'memo' }, '(root)'],
    [['topic'], '(root)'],
  ]
  for (const [brief, path] of cases) {
    const response = await app.fetch('/api/briefs', {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(brief),
    })
    expect(response.status, JSON.stringify(brief)).toBe(400)
    const problem = await response.json()
    expect(
      problem.errors.map((error: { path: string }) => error.path),
      JSON.stringify(brief),
    ).toContain(path)
  }
})

test('a brief may carry a token and a cost budget; the run keeps them and GET returns them', async () => {
  const user = await createTestAccount(app.db)
  const { response, body } = await postBrief(app.fetch, user.auth, {
    topic: 'budgeted heat pumps',
    depth: 'quick',
    maxTokens: 250_000,
    maxCostDollars: 1.25,
  })
  expect(response.status).toBe(202)
  const view = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: user.auth })).json()
  expect(view.brief).toMatchObject({ topic: 'budgeted heat pumps', maxTokens: 250_000, maxCostDollars: 1.25 })
  // Without them, a brief has none: the engine falls back to the server's default.
  const plain = await postBrief(app.fetch, user.auth, { topic: 'unbudgeted heat pumps', depth: 'quick' })
  const plainView = await (await app.fetch(`/api/briefs/${plain.body.runId}`, { headers: user.auth })).json()
  expect(plainView.brief).not.toHaveProperty('maxTokens')
  expect(plainView.brief).not.toHaveProperty('maxCostDollars')
})

test("another account's run, and an id that is no run, are 404", async () => {
  const alice = await createTestAccount(app.db)
  const bob = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, alice.auth, { topic: 'private topic', depth: 'quick' })
  for (const path of [`/api/briefs/${body.runId}`, `/api/briefs/${body.runId}/events`, '/api/briefs/not-a-uuid']) {
    expect((await app.fetch(path, { headers: bob.auth })).status, path).toBe(404)
  }
  expect((await app.fetch(`/api/briefs/${body.runId}`, { method: 'DELETE', headers: bob.auth })).status).toBe(404)
  await waitForRun(app.fetch, alice.auth, body.runId)
})

test('the list is newest first, cursor-paginated, and filters by status and topic', async () => {
  const user = await createTestAccount(app.db)
  const ids: string[] = []
  for (const topic of ['Alpha topic', 'Beta topic', 'alpha   TOPIC']) {
    const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
    ids.push(body.runId)
    await waitForRun(app.fetch, user.auth, body.runId)
  }
  const first = await (await app.fetch('/api/briefs?limit=2', { headers: user.auth })).json()
  expect(first.runs.map((run: { runId: string }) => run.runId)).toEqual([ids[2], ids[1]])
  expect(first.nextCursor).toBe(ids[1])
  const second = await (
    await app.fetch(`/api/briefs?limit=2&cursor=${first.nextCursor}`, { headers: user.auth })
  ).json()
  expect(second).toEqual({
    runs: [expect.objectContaining({ runId: ids[0], status: 'complete', depth: 'quick' })],
    nextCursor: null,
  })

  const alpha = await (await app.fetch('/api/briefs?topic=ALPHA%20topic', { headers: user.auth })).json()
  expect(alpha.runs.map((run: { runId: string }) => run.runId)).toEqual([ids[2], ids[0]])
  const failed = await (await app.fetch('/api/briefs?status=failed', { headers: user.auth })).json()
  expect(failed.runs).toEqual([])
  expect((await app.fetch('/api/briefs?limit=500', { headers: user.auth })).status).toBe(400)
  // A cursor that is no page's nextCursor is refused, not read as "from the start".
  const garbage = await app.fetch('/api/briefs?cursor=not-a-cursor', { headers: user.auth })
  expect(garbage.status).toBe(400)
  expect(await garbage.json()).toMatchObject({
    errors: [{ path: 'cursor', message: 'cursor must be the nextCursor of a previous page' }],
  })
})

test('a running run can be cancelled once; a finished one cannot', async () => {
  const user = await createTestAccount(webOnly.db)
  const { body } = await postBrief(webOnly.fetch, user.auth, { topic: 'to cancel', depth: 'quick' })
  const cancel = await webOnly.fetch(`/api/briefs/${body.runId}`, { method: 'DELETE', headers: user.auth })
  expect(cancel.status).toBe(200)
  expect(await cancel.json()).toMatchObject({ status: 'cancelled', finishedAt: expect.any(String) })
  const again = await webOnly.fetch(`/api/briefs/${body.runId}`, { method: 'DELETE', headers: user.auth })
  expect(again.status).toBe(409)
})

test('runs per IP per hour: the fourth start is 429; an idempotent retry replays without counting', async () => {
  const user = await createTestAccount(webOnly.db)
  const headers = { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'start-1' }
  const body = JSON.stringify({ topic: 'limited topic', depth: 'quick' })
  const first = await webOnly.fetch('/api/briefs', { method: 'POST', headers, body })
  expect(first.status).toBe(202)
  expect(first.headers.get('ratelimit-policy')).toBe('"runs";q=3;w=3600')
  const firstBody = await first.json()
  // The same key and body: the same run, not a new one.
  const replay = await webOnly.fetch('/api/briefs', { method: 'POST', headers, body })
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect(await replay.json()).toEqual(firstBody)
})

test('the event stream replays a run and closes; Last-Event-ID resumes without gaps or repeats', async () => {
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'streamed topic', depth: 'quick' })
  const url = new URL(`/api/briefs/${body.runId}/events`, app.url)
  const full = await openEventStream(url, user.auth)
  await full.waitFor(() => full.closed)
  const types = full.messages.map((message) => message.event)
  expect(types[0]).toBe('run_started')
  expect(types.at(-1)).toBe('complete')
  for (const step of ['load_memory', 'plan', 'search', 'synthesize', 'save_memory']) {
    expect(
      full.messages.some((message) => message.event === 'step_finished' && JSON.parse(message.data).step === step),
    ).toBe(true)
  }

  const middle = full.messages[2]?.id as string
  const resumed = await openEventStream(url, { ...user.auth, 'Last-Event-ID': middle })
  await resumed.waitFor(() => resumed.closed)
  expect(resumed.messages.map((message) => message.id)).toEqual(full.messages.slice(3).map((message) => message.id))
})

test('an invalid brief is refused before the rate limit, so it spends none of the hour’s runs', async () => {
  const strict = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1' } })
  try {
    const user = await createTestAccount(strict.db)
    for (const brief of [{ topic: '' }, { topic: 'x', depth: 'fast' }, { topic: 'x', frameworkId: 'astrology' }]) {
      expect((await postBrief(strict.fetch, user.auth, brief as never)).response.status).toBe(400)
    }
    expect(
      (await postBrief(strict.fetch, user.auth, { topic: 'the one allowed', depth: 'quick' })).response.status,
    ).toBe(202)
    expect((await postBrief(strict.fetch, user.auth, { topic: 'one too many', depth: 'quick' })).response.status).toBe(
      429,
    )
  } finally {
    await strict.stop()
  }
})
