// The OpenAI-compatible LanguageModel through the real `openai` client against the stub server.
import { expect, test } from 'vitest'
import { PlanParseError, ProviderError } from '#server/providers/types.ts'
import { planInput, setupOpenAiModel as setup, synthesisInput } from '#test/support/openai-model.ts'

test('a plan is cleaned: trimmed, deduplicated regardless of case, cut to 200 characters and to maxQueries', async () => {
  const { stub, model, signal } = await setup()
  const long = `battery ${'x'.repeat(300)}`
  stub.onPlan({
    content: { queries: ['  Sulfide electrolytes  ', 'sulfide ELECTROLYTES', '', long, 'pilot lines', 'yields'] },
  })

  const { plan, usage } = await model.plan(planInput({ maxQueries: 3 }), { signal })

  expect(plan.queries).toEqual(['Sulfide electrolytes', long.slice(0, 200), 'pilot lines'])
  expect(usage.inputTokens).toBeGreaterThan(0)
  expect(stub.requests[0]?.responseFormat?.json_schema?.strict).toBe(true)
  expect(stub.requests[0]?.text).toContain('solid-state batteries')
})

test('a refused plan, or one empty of queries, is a PlanParseError, not asked again', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ refusal: 'I cannot help with that.' }, { content: { queries: ['  ', ''] } })

  await expect(model.plan(planInput(), { signal })).rejects.toThrow(/refused: I cannot help/)
  await expect(model.plan(planInput(), { signal })).rejects.toThrow(/no queries/)
  expect(stub.requests).toHaveLength(2)
})

// Text that is not the schema's JSON gets one repair request (test/openai-model-json-mode.test.ts).
test('a plan that violates the schema, and again when asked to repair it, is a PlanParseError', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ content: { queries: 'solid-state batteries news' } }, { content: 'Sure! Here are some queries.' })

  const failure = await model.plan(planInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(PlanParseError)
  expect((failure as Error).message).toMatch(/not JSON/)
  expect(stub.requests).toHaveLength(2)
})

test('a 429 is retried after the Retry-After the server asked for, and the call then succeeds', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ status: 429, headers: { 'retry-after': '1' }, error: { message: 'Rate limit reached' } })
  const started = performance.now()

  const { plan } = await model.plan(planInput(), { signal })

  expect(plan.queries[0]).toBe('solid-state batteries')
  expect(stub.requests).toHaveLength(2)
  // Our own first backoff is at most 500 ms; only Retry-After makes the wait reach a second.
  expect(performance.now() - started).toBeGreaterThanOrEqual(1000)
})

test('a 5xx is retried', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ status: 503, error: { message: 'The server is overloaded' } })

  const { plan } = await model.plan(planInput(), { signal })

  expect(plan.queries).toHaveLength(3)
  expect(stub.requests).toHaveLength(2)
})

test('a rejected API key fails at once, naming OPENAI_API_KEY', async () => {
  const { stub, model, signal } = await setup({ apiKey: 'sk-wrong' })

  const failure = await model.plan(planInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).toMatchObject({ status: 401, retryable: false })
  expect((failure as Error).message).toMatch(/OPENAI_API_KEY/)
  expect(stub.requests).toHaveLength(1)
})

test('an unknown model fails at once, naming the model and OPENAI_MODEL', async () => {
  const { stub, model, signal } = await setup({ model: 'gpt-nonexistent', models: ['gpt-test'] })

  const failure = await model.synthesize(synthesisInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).toMatchObject({ status: 404, retryable: false })
  expect((failure as Error).message).toMatch(/gpt-nonexistent.*OPENAI_MODEL/)
  expect(stub.requests).toHaveLength(1)
})

test('synthesize returns cited findings and the usage the server reported; uncited findings are dropped', async () => {
  const { stub, model, signal } = await setup()
  stub.onSynthesize({
    content: {
      headline: 'Pilot production has started',
      findings: [
        { text: 'A sulfide pilot line opened in March.', quote: 'pilot line for sulfide cells opened', sourceIds: [1] },
        { text: 'Yields are rising.', quote: 'Yields improve', sourceIds: [2, 1] },
        { text: 'Prices will halve.', quote: 'Prices will halve', sourceIds: [] },
      ],
      sections: null,
      implications: 'Expect announcements [1].',
      gaps: ['Costs per kWh'],
    },
    usage: { prompt_tokens: 1234, completion_tokens: 56 },
  })

  const { synthesis, usage } = await model.synthesize(synthesisInput(), { signal })

  expect(synthesis).toEqual({
    headline: 'Pilot production has started',
    findings: [
      { text: 'A sulfide pilot line opened in March.', quote: 'pilot line for sulfide cells opened', sourceIds: [1] },
      { text: 'Yields are rising.', quote: 'Yields improve', sourceIds: [2, 1] },
    ],
    implications: 'Expect announcements [1].',
    gaps: ['Costs per kWh'],
  })
  expect(usage).toEqual({ inputTokens: 1234, outputTokens: 56 })
  expect(model).toMatchObject({ name: 'gpt-test', kind: 'model' })
})

test('the synthesis prompt carries the numbered sources, the known facts and the framework sections', async () => {
  const { stub, model, signal } = await setup()
  const framework = { id: 'swot', name: 'SWOT', queryHints: [], sections: ['Strengths', 'Weaknesses'] }

  const { synthesis } = await model.synthesize(
    synthesisInput({ reportStyle: 'framework', framework, knownFacts: ['Toyota plans cars for 2027.'] }),
    { signal },
  )

  const prompt = stub.requests[0]?.text ?? ''
  expect(prompt).toContain('[1] Pilot line opens (2025-03-04) https://example.com/pilot-line')
  expect(prompt).toContain('A pilot line for sulfide cells opened in March.')
  expect(prompt).toContain('[2] Yields improve (undated) https://example.org/yields')
  expect(prompt).toContain('Toyota plans cars for 2027.')
  expect(prompt).toContain('["Strengths","Weaknesses"]')
  // The stub's default answer: one finding per source, and the sections it was asked for.
  expect(synthesis.findings.map((finding) => finding.sourceIds)).toEqual([[1], [2]])
  expect(synthesis.sections?.map((section) => section.title)).toEqual(['Strengths', 'Weaknesses'])
})

test('an unreadable synthesis fails the call after one repair request, a garbled body without any', async () => {
  const { stub, model, signal } = await setup()
  stub.onSynthesize(
    { content: { headline: 'Only a headline' } },
    { content: { headline: 'Still only a headline' } },
    { garbage: '<html>502 Bad Gateway' },
  )

  const failure = await model.synthesize(synthesisInput(), { signal }).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(ProviderError)
  expect(failure).toMatchObject({ retryable: false })
  expect((failure as Error).message).toMatch(/gpt-test did not return a usable synthesis/)
  await expect(model.synthesize(synthesisInput(), { signal })).rejects.toThrow(ProviderError)
  expect(stub.requests).toHaveLength(3)
})

test('a server that never answers fails each attempt within timeoutMs', async () => {
  const { stub, model, signal } = await setup({ timeoutMs: 200 })
  stub.onPlan('hang', 'hang', 'hang')
  const started = performance.now()

  const failure = await model.plan(planInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(ProviderError)
  expect((failure as Error).message).toMatch(/did not answer within 200 ms/)
  expect(stub.requests).toHaveLength(3)
  // Three 200 ms attempts plus at most 500 + 1000 ms of backoff between them.
  expect(performance.now() - started).toBeLessThan(3 * 200 + 1500 + 500)
})
