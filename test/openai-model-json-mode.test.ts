// Servers without JSON-schema output (most Groq models refuse it with a 400; Anthropic's compatibility
// layer and some OpenRouter routes ignore it and answer in prose; older Ollama too): the model steps
// down to JSON mode with the schema in the prompt, checks every answer with zod, and asks once more,
// showing the model its answer and what is wrong with it, when an answer does not parse.
import { expect, test } from 'vitest'
import type { JudgeRequest } from '#server/claims/classify.ts'
import { RETRY_BETTER_MODE_MS } from '#server/providers/llm/openai.ts'
import { PlanParseError, ProviderError } from '#server/providers/types.ts'
import { capturingLogger } from '#test/support/logger.ts'
import { planInput, setupOpenAiModel as setup, synthesisInput } from '#test/support/openai-model.ts'

const judgeItems: JudgeRequest = {
  memory: [{ text: 'Pilot lines opened in March.', quote: 'Pilot lines opened in March.' }],
  items: [{ claim: { text: 'Pilot lines opened in March.', quote: 'Pilot lines opened in March.' }, closest: [0] }],
}

test('a server that refuses json_schema with a 400: plan, synthesis and judge still work, in JSON mode', async () => {
  const { log, lines } = capturingLogger()
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema'], log })

  const { plan } = await model.plan(planInput(), { signal })
  const { synthesis } = await model.synthesize(synthesisInput(), { signal })
  const judged = await model.judgeClaims?.(judgeItems, { signal, topic: 'solid-state batteries' })

  expect(plan.queries[0]).toBe('solid-state batteries')
  expect(synthesis.findings.length).toBeGreaterThan(0)
  expect(judged?.verdicts).toEqual([{ index: 0, class: 'confirmed', candidate: 0 }])
  // Refused once; every later call asks in JSON mode at once, the schema in its system message.
  expect(stub.requests.map((request) => request.responseFormat?.type)).toEqual([
    'json_schema',
    'json_object',
    'json_object',
    'json_object',
  ])
  expect(stub.requests[1]?.messages[0]?.content).toMatch(
    /JSON schema "plan": \{"type":"object","properties":\{"queries"/,
  )
  expect(stub.requests[2]?.messages[0]?.content).toContain('"sourceIds"')
  expect(
    lines.filter((line) => /response_format json_schema: asking with JSON mode/.test(String(line.msg))),
  ).toHaveLength(1)
})

test('a server that refuses json_object too is asked with the schema in the prompt alone', async () => {
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema', 'json_object'] })

  const { plan } = await model.plan(planInput(), { signal })
  await model.plan(planInput(), { signal })

  expect(plan.queries).toHaveLength(3)
  expect(stub.requests.map((request) => request.responseFormat?.type ?? 'none')).toEqual([
    'json_schema',
    'json_object',
    'none',
    'none',
  ])
})

test('a 400 that is not about the response format is an error, and the model keeps json_schema', async () => {
  const { stub, model, signal } = await setup()
  stub.onPlan({ status: 400, error: { message: "This model's maximum context length is 8192 tokens." } })

  await expect(model.plan(planInput(), { signal })).rejects.toThrow(ProviderError)
  await model.plan(planInput(), { signal })

  expect(stub.requests.map((request) => request.responseFormat?.type)).toEqual(['json_schema', 'json_schema'])
})

test('one prose answer to json_schema is a glitch: repaired once in JSON mode, and the next call still asks with json_schema', async () => {
  const { log, lines } = capturingLogger()
  const { stub, model, signal } = await setup({ log })
  stub.onPlan({ content: 'Sure! Here are some queries: sulfide cells, pilot lines' })

  const { plan, usage } = await model.plan(planInput(), { signal })
  await model.plan(planInput(), { signal })

  expect(plan.queries[0]).toBe('solid-state batteries')
  const [first, repair, next] = stub.requests
  // The repair shows the model its answer and what was wrong with it.
  expect(repair?.messages.slice(-2)).toEqual([
    { role: 'assistant', content: 'Sure! Here are some queries: sulfide cells, pilot lines' },
    { role: 'user', content: expect.stringMatching(/^That answer cannot be used: it was not JSON/) },
  ])
  expect([first, repair, next].map((request) => request?.responseFormat?.type)).toEqual([
    'json_schema',
    'json_object',
    'json_schema',
  ])
  expect(stub.requests).toHaveLength(3)
  expect(lines.filter((line) => line.level === 'warn')).toEqual([])
  // Both answers of the first call are paid for.
  expect(usage.inputTokens).toBeGreaterThan(2 * Math.floor((first?.text.length ?? 0) / 4))
})

test('a server that ignores json_schema (prose three answers in a row) steps down to JSON mode, and says so', async () => {
  const { log, lines } = capturingLogger()
  const { stub, model, signal } = await setup({ log })
  const prose = { content: 'Sure! Here are some queries: sulfide cells, pilot lines' }
  // Each prose answer is repaired in JSON mode (the stub's own plan); the third steps the model down.
  stub.onPlan(prose)
  await model.plan(planInput(), { signal })
  stub.onPlan(prose)
  await model.plan(planInput(), { signal })
  expect(lines.filter((line) => line.level === 'warn')).toEqual([])
  stub.onPlan(prose)
  await model.plan(planInput(), { signal })
  await model.plan(planInput(), { signal })

  expect(stub.requests.map((request) => request.responseFormat?.type)).toEqual([
    'json_schema',
    'json_object',
    'json_schema',
    'json_object',
    'json_schema',
    'json_object',
    'json_object',
  ])
  expect(
    lines.filter((line) => /response_format json_schema: asking with JSON mode/.test(String(line.msg))),
  ).toHaveLength(1)
})

test('a mode stepped down from is tried again after a while, and left at once if it fails again', async () => {
  const { log, lines } = capturingLogger()
  let clock = 0
  const { stub, model, signal } = await setup({ log, rejectFormats: ['json_schema'], now: () => clock })

  await model.plan(planInput(), { signal })
  clock += RETRY_BETTER_MODE_MS - 1
  await model.plan(planInput(), { signal })
  clock += 1
  await model.plan(planInput(), { signal })
  await model.plan(planInput(), { signal })

  expect(stub.requests.map((request) => request.responseFormat?.type)).toEqual([
    'json_schema', // refused
    'json_object',
    'json_object', // not yet time
    'json_schema', // tried again, refused again
    'json_object',
    'json_object',
  ])
  expect(
    lines.filter((line) => /asking gpt-test with response_format json_schema again/.test(String(line.msg))),
  ).toHaveLength(1)
  expect(
    lines.filter((line) => /did not give gpt-test response_format json_schema/.test(String(line.msg))),
  ).toHaveLength(2)
})

test('JSON mode: an answer that fails the schema once is fixed by the repair request, which carries the error', async () => {
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema'] })
  stub.onPlan({ content: { queries: 'sulfide cells' }, usage: { prompt_tokens: 400, completion_tokens: 10 } })
  stub.onPlan({
    content: { queries: ['sulfide cells', 'pilot lines'] },
    usage: { prompt_tokens: 450, completion_tokens: 12 },
  })

  const { plan, usage } = await model.plan(planInput(), { signal })

  expect(plan.queries).toEqual(['sulfide cells', 'pilot lines'])
  expect(usage).toEqual({ inputTokens: 850, outputTokens: 22 })
  const repair = stub.requests.at(-1)
  expect(repair?.messages.at(-2)).toEqual({ role: 'assistant', content: '{"queries":"sulfide cells"}' })
  expect(repair?.messages.at(-1)?.content).toMatch(/did not match the schema[\s\S]*queries/)
})

test('JSON mode: JSON in a code fence, with prose and thinking around it, is read without a repair', async () => {
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema'] })
  stub.onPlan({
    content:
      '<think>The user wants {queries}.</think>Here is the plan:\n```json\n{"queries": ["sulfide cells"]}\n```\nGood luck!',
  })

  const { plan } = await model.plan(planInput(), { signal })

  expect(plan.queries).toEqual(['sulfide cells'])
  expect(stub.requests).toHaveLength(2)
})

test('an answer unusable twice is a PlanParseError carrying the usage of both answers', async () => {
  const { stub, model, signal } = await setup()
  const usage = { prompt_tokens: 300, completion_tokens: 20 }
  stub.onPlan({ content: 'Here you go: sulfide cells', usage }, { content: '{"queries": ["sulfide', usage })

  const failure = await model.plan(planInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(PlanParseError)
  expect((failure as Error).message).toMatch(/not JSON/)
  expect(failure).toMatchObject({ usage: { inputTokens: 600, outputTokens: 40 } })
  expect(stub.requests).toHaveLength(2)
})

test('a synthesis unusable twice is a ProviderError carrying the usage of both answers', async () => {
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema'] })
  const usage = { prompt_tokens: 2000, completion_tokens: 300 }
  stub.onSynthesize(
    { content: { headline: 'Pilot lines', findings: 'many' }, usage },
    { content: { headline: 'Pilot lines', findings: [{ text: 'x' }] }, usage },
  )

  const failure = await model.synthesize(synthesisInput(), { signal }).catch((error: unknown) => error)

  expect(failure).toBeInstanceOf(ProviderError)
  expect((failure as Error).message).toMatch(/did not return a usable synthesis: it did not match the schema/)
  expect(failure).toMatchObject({ retryable: false, usage: { inputTokens: 4000, outputTokens: 600 } })
  expect(stub.requests).toHaveLength(3)
})

test('an answer cut off at the token limit is not repaired: a second one would be cut off too', async () => {
  const { stub, model, signal } = await setup({ rejectFormats: ['json_schema'] })
  stub.onPlan({ content: '{"queries": ["sulf', finishReason: 'length' })

  await expect(model.plan(planInput(), { signal })).rejects.toThrow(/cut off/)
  expect(stub.requests).toHaveLength(2)
})
