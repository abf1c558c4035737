// What the OpenAI-compatible model spends: every call is capped in output tokens, and a call whose
// answer could not be used still reports the tokens the server billed for it (issue 17, item 5).
import { expect, test } from 'vitest'
import type { JudgeRequest, PairRequest } from '#server/claims/classify.ts'
import { tokenLimitParameter } from '#server/providers/llm/output-limits.ts'
import { PlanParseError, ProviderError } from '#server/providers/types.ts'
import { planInput, setupOpenAiModel as setup, synthesisInput } from '#test/support/openai-model.ts'

function judgeItems(count: number): JudgeRequest {
  return {
    memory: Array.from({ length: count }, (_, index) => ({
      text: `Known ${index} about cells.`,
      quote: `Known ${index}`,
    })),
    items: Array.from({ length: count }, (_, index) => ({
      claim: { text: `Claim ${index} about cells.`, quote: `Claim ${index}` },
      closest: [index],
    })),
  }
}

function pairs(count: number): PairRequest {
  return {
    pairs: Array.from({ length: count }, (_, index) => ({
      claim: { text: `Claim ${index} about cells.`, quote: `Claim ${index}` },
      known: { text: `Known ${index} about cells.`, quote: `Known ${index}` },
    })),
  }
}

/** What the call threw; `undefined` (a model without the method) counts as a success. */
async function failureOf(promise: Promise<unknown> | undefined): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  )
}

test('every call carries an output-token limit: plan, quick and deep synthesis, and a judge sized by its claims', async () => {
  const { stub, model, signal } = await setup()

  await model.plan(planInput({ depth: 'deep' }), { signal })
  await model.synthesize(synthesisInput({ depth: 'quick' }), { signal })
  await model.synthesize(synthesisInput({ depth: 'deep' }), { signal })
  await model.synthesize(synthesisInput(), { signal })
  await model.judgeClaims?.(judgeItems(3), { signal, topic: 'solid-state batteries' })
  await model.judgeClaims?.(judgeItems(200), { signal, topic: 'solid-state batteries' })

  expect(stub.requests.map((request) => [request.kind, request.maxTokens])).toEqual([
    ['plan', 800],
    ['synthesize', 3000],
    ['synthesize', 6000],
    // A caller that does not say how deep is not cut short.
    ['synthesize', 6000],
    ['judge', 256 + 3 * 48],
    ['judge', 4096],
  ])
  // Ollama reads only max_tokens; the newer name is for OpenAI's own endpoints.
  expect(stub.requests.every((request) => request.maxCompletionTokens === undefined)).toBe(true)
})

test("OpenAI's own endpoints get max_completion_tokens, which its reasoning models require; other servers max_tokens", () => {
  expect(tokenLimitParameter(undefined)).toBe('max_completion_tokens')
  expect(tokenLimitParameter('https://api.openai.com/v1')).toBe('max_completion_tokens')
  expect(tokenLimitParameter('https://sextant.openai.azure.com/openai/v1')).toBe('max_completion_tokens')
  expect(tokenLimitParameter('http://localhost:11434/v1')).toBe('max_tokens')
  expect(tokenLimitParameter('http://vllm.internal:8000/v1')).toBe('max_tokens')
  expect(tokenLimitParameter('https://api.openai.com.example.net/v1')).toBe('max_tokens')
})

test('a configured output limit replaces the built-in ones on every call', async () => {
  const { stub, model, signal } = await setup({ maxOutputTokens: 20_000 })

  await model.plan(planInput(), { signal })
  await model.synthesize(synthesisInput({ depth: 'quick' }), { signal })
  await model.judgeClaims?.(judgeItems(2), { signal, topic: 'solid-state batteries' })

  expect(stub.requests.map((request) => request.maxTokens)).toEqual([20_000, 20_000, 20_000])
})

test('a plan answer that cannot be used throws a PlanParseError carrying the tokens the server billed', async () => {
  const { stub, model, signal } = await setup()
  const usage = { prompt_tokens: 321, completion_tokens: 12 }
  // Text that is not the plan's JSON is shown to the model once more; the other failures are not.
  const cases = [
    { reason: /schema/, replies: [{ queries: 'solid-state batteries news' }, { queries: 'cells' }] },
    { reason: /not JSON/, replies: ['Sure! Here are some queries: batteries, cells', 'Batteries, cells.'] },
    { reason: /no queries/, replies: [{ queries: ['  '] }] },
  ]
  for (const { reason, replies } of cases) {
    stub.onPlan(...replies.map((content) => ({ content, usage })))
    const failure = await failureOf(model.plan(planInput(), { signal }))
    expect(failure).toBeInstanceOf(PlanParseError)
    expect((failure as Error).message).toMatch(reason)
    const answers = replies.length
    expect(failure).toMatchObject({ usage: { inputTokens: 321 * answers, outputTokens: 12 * answers } })
  }
  stub.onPlan(
    { content: '{"queries": ["solid-state', finishReason: 'length', usage },
    { content: '', finishReason: 'content_filter', usage },
  )
  for (const reason of [/cut off/, /content filter/]) {
    const failure = await failureOf(model.plan(planInput(), { signal }))
    expect((failure as Error).message).toMatch(reason)
    expect(failure).toMatchObject({ usage: { inputTokens: 321, outputTokens: 12 } })
  }
  // Unusable answers are the model's, not the transport's: none was retried.
  expect(stub.requests).toHaveLength(7)
})

test('a refused plan carries its usage too', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ refusal: 'I cannot help with that.' })

  const failure = await failureOf(model.plan(planInput(), { signal }))

  expect(failure).toBeInstanceOf(PlanParseError)
  // The stub bills a quarter of the characters, at least one token each way.
  const { usage } = failure as PlanParseError
  expect(usage?.inputTokens).toBeGreaterThan(0)
  expect(usage?.outputTokens).toBeGreaterThan(0)
})

test('a synthesis cut off at the token limit throws a ProviderError carrying the tokens it cost', async () => {
  const { stub, model, signal } = await setup()
  stub.onSynthesize({
    content: '{"headline": "Pilot production has started", "findings": [{"text": "A sulf',
    finishReason: 'length',
    usage: { prompt_tokens: 9000, completion_tokens: 6000 },
  })

  const failure = await failureOf(model.synthesize(synthesisInput({ depth: 'deep' }), { signal }))

  expect(failure).toBeInstanceOf(ProviderError)
  expect((failure as Error).message).toMatch(/cut off at the token limit/)
  expect(failure).toMatchObject({ retryable: false, usage: { inputTokens: 9000, outputTokens: 6000 } })
  expect(stub.requests).toHaveLength(1)
})

test('verdicts the judge could not give carry their usage', async () => {
  const { stub, model, signal } = await setup()
  const usage = { prompt_tokens: 700, completion_tokens: 40 }
  stub.onJudge({ content: { verdicts: [{ claim: 0 }] }, usage }, { content: { verdicts: [{ claim: 1 }] }, usage })

  const failure = await failureOf(model.judgeClaims?.(judgeItems(2), { signal, topic: 'solid-state batteries' }))

  expect(failure).toBeInstanceOf(ProviderError)
  // The answer and the repair request's.
  expect(failure).toMatchObject({ usage: { inputTokens: 1400, outputTokens: 80 } })
})

test('a second reading asks about each pair alone, in the "pairs" format, and counts what it cost', async () => {
  const { stub, model, signal } = await setup()
  const usage = { prompt_tokens: 210, completion_tokens: 30 }
  stub.onPairs({
    content: {
      answers: [
        { pair: 1, verdict: 'updated' },
        { pair: 0, verdict: 'confirmed' },
        // A pair that was not asked about is no answer.
        { pair: 7, verdict: 'confirmed' },
      ],
    },
    usage,
  })

  const answer = await model.judgePairs?.(pairs(2), { signal, topic: 'solid-state batteries' })

  expect(answer).toEqual({
    verdicts: [
      { index: 1, class: 'updated' },
      { index: 0, class: 'confirmed' },
    ],
    usage: { inputTokens: 210, outputTokens: 30 },
  })
  const [request] = stub.requests
  expect(request?.responseFormat?.json_schema?.name).toBe('pairs')
  expect(request?.maxTokens).toBe(256 + 2 * 48)
  expect(request?.text).toContain('Pair 1: <claim>Claim 1 about cells.</claim> <memory>Known 1 about cells.</memory>')
  // Each pair stands alone: no numbered memory to choose from.
  expect(request?.text).not.toMatch(/^M\d+:/m)
})

test('pair verdicts the model could not give carry their usage', async () => {
  const { stub, model, signal } = await setup()
  const usage = { prompt_tokens: 300, completion_tokens: 20 }
  stub.onPairs({ content: { answers: [{ pair: 0 }] }, usage }, { content: { answers: [{ pair: 0 }] }, usage })

  const failure = await failureOf(model.judgePairs?.(pairs(1), { signal, topic: 'solid-state batteries' }))

  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).toMatchObject({ retryable: false, usage: { inputTokens: 600, outputTokens: 40 } })
})

test("a 500 then a good answer: the call succeeds with the answer's usage", async () => {
  const { stub, model, signal } = await setup()
  stub.onSynthesize(
    { status: 500, error: { message: 'The server had an error' } },
    {
      content: { headline: 'Pilot lines', findings: [], sections: null, implications: null, gaps: [] },
      usage: { prompt_tokens: 1500, completion_tokens: 30 },
    },
  )

  const { synthesis, usage } = await model.synthesize(synthesisInput(), { signal })

  expect(synthesis.headline).toBe('Pilot lines')
  expect(usage).toEqual({ inputTokens: 1500, outputTokens: 30 })
  expect(stub.requests).toHaveLength(2)
})

test('a call the server never answered fails with zero usage, not none', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ status: 500 }, { status: 502 }, { status: 503 })

  const failure = await failureOf(model.plan(planInput(), { signal }))

  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).toMatchObject({ status: 503, usage: { inputTokens: 0, outputTokens: 0 } })
  expect(stub.requests).toHaveLength(3)
})
