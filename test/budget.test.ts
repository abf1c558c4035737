// A budget a user can set (issue 17): a run that would spend past its `maxTokens` or
// `maxCostDollars` (or the server's RUN_MAX_TOKENS) stops spending, finishes with what it has, and
// says so in the report and a `warning` event. Through the REST API, against the exa-js and openai
// clients on stub servers.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'

const RUN_MAX_TOKENS = 900_000
let stubs: ProviderApp
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
const documents: StubExaDocument[] = Array.from({ length: 6 }, (_, i) => ({
  url: `https://budget.example/geothermal-${i}`,
  title: `Geothermal budget page ${i}`,
  publishedDate: day(1),
  text: `Geothermal plants in Kenya added ${100 + i} MW in 2026, the ministry said. ${'Geothermal drilling continued. '.repeat(20)}`,
}))

beforeAll(async () => {
  stubs = await startProviderApp({
    documents,
    env: { RATE_LIMIT_RUNS_PER_HOUR: '1000', RUN_MAX_TOKENS: String(RUN_MAX_TOKENS) },
  })
})
afterAll(() => stubs.stop())

async function run(brief: Parameters<typeof postBrief>[2]) {
  const user = await createTestAccount(stubs.app.db)
  const { response, body } = await postBrief(stubs.app.fetch, user.auth, brief)
  expect(response.status).toBe(202)
  const done = await waitForRun(stubs.app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  const events = await readRunEvents(stubs.app.db, eventDataColumn(stubs.app.ring), body.runId, 0)
  return { done, warnings: events.filter((event) => event.data.code === 'budget_reached') }
}

test('a token budget too small for the follow-up round and the model’s report stops spending there, and says so', async () => {
  const before = stubs.openai.requests.length
  const { done, warnings } = await run({ topic: 'Geothermal budget', depth: 'deep', timeframe: 'all', maxTokens: 3000 })
  const report = done.report
  const kinds = stubs.openai.requests.slice(before).map((request) => request.kind)
  expect(kinds).toEqual(['plan']) // no follow-up plan, no synthesis
  expect((report?.usage.inputTokens ?? 0) + (report?.usage.outputTokens ?? 0)).toBeLessThanOrEqual(3000)
  expect(report?.budget).toEqual({
    maxTokens: 3000,
    maxCostDollars: null,
    reached: true,
    leftOut: ['the follow-up round', "the model's report"],
  })
  expect(report?.generatedWith.synthesisKind).toBe('extractive')
  expect(report?.summary).toMatch(/### Budget\nThis run stopped spending at its budget of 3,000 tokens: it left out/)
  expect(report?.delta.newFindings.length).toBeGreaterThan(0) // it finished with what it had
  expect(warnings.map((event) => event.step)).toEqual(['search', 'synthesize'])
})

test('a dollar budget stops the searches it cannot pay for', async () => {
  const queries = ['kenya', 'drilling', 'ministry', 'plants', 'added', 'continued'].map((word) => `geothermal ${word}`)
  stubs.openai.onPlan({ content: { queries } })
  const { done, warnings } = await run({
    topic: 'Geothermal budget',
    depth: 'deep',
    timeframe: 'all',
    maxCostDollars: 0.01,
  })
  // Each stub search costs $0.005 and more for its text; searches run 3 at a time, and those under
  // way when the budget is reached finish.
  expect(done.report?.usage.searchCalls).toBeLessThan(queries.length)
  expect(done.report?.budget).toMatchObject({ maxCostDollars: 0.01, reached: true })
  expect(done.report?.budget?.leftOut).toContain('some searches')
  expect(warnings.length).toBeGreaterThan(0)
})

test('without a budget in the brief the server’s RUN_MAX_TOKENS applies, and a run within it is untouched', async () => {
  const { done, warnings } = await run({ topic: 'Geothermal budget', depth: 'quick', timeframe: 'all' })
  expect(done.report?.budget).toEqual({ maxTokens: RUN_MAX_TOKENS, maxCostDollars: null, reached: false, leftOut: [] })
  expect(done.report?.generatedWith.synthesisKind).toBe('model')
  expect(done.report?.summary).not.toContain('### Budget')
  expect(warnings).toEqual([])
})
