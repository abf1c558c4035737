// A budget on text that tokenizes densely (issue 41, item 6): Chinese runs near one character a
// token, so a budget that took every script at four characters a token read three times what it
// could pay for. The stub model counts tokens as OpenAI's tokenizer does, so what it reports is what
// a real server would bill.
import { countTokens } from 'gpt-tokenizer'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'

let stubs: ProviderApp
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
const sentence = '地热发电站在肯尼亚新增了一百兆瓦的装机容量，能源部表示钻探工作仍在继续。'
const documents: StubExaDocument[] = Array.from({ length: 16 }, (_, i) => ({
  url: `https://dense.example/geothermal-${i}`,
  title: `地热 ${i}`,
  publishedDate: day(1),
  text: `地热发电 ${2020 + i} 年。${sentence.repeat(80)}`,
}))

beforeAll(async () => {
  stubs = await startProviderApp({
    documents,
    openai: { countTokens: (text) => countTokens(text) },
    env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' },
  })
})
afterAll(() => stubs.stop())

test('a budget on Chinese pages reads what it can pay for, and says when it was passed', async () => {
  const user = await createTestAccount(stubs.app.db)
  const maxTokens = 20_000
  const { body } = await postBrief(stubs.app.fetch, user.auth, {
    topic: '地热发电',
    depth: 'deep',
    timeframe: 'all',
    maxTokens,
  })
  const done = await waitForRun(stubs.app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  const spent = (done.report?.usage.inputTokens ?? 0) + (done.report?.usage.outputTokens ?? 0)
  // The reading fits the budget as the tokenizer counts it, not as four characters a token would.
  expect(spent).toBeLessThanOrEqual(maxTokens)
  expect(done.report?.budget).toMatchObject({ maxTokens, reached: true })
  expect(done.report?.generatedWith.synthesisKind).toBe('model')
  expect(done.report?.budget?.leftOut).toContain('part of the pages found')
})
