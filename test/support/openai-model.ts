// The OpenAI-compatible LanguageModel pointed at a fresh stub server, and inputs for its calls.
import { onTestFinished } from 'vitest'
import type { Logger } from '#server/logger.ts'
import { createOpenAiModel } from '#server/providers/llm/openai.ts'
import type { PlanInput, SynthesisInput } from '#server/providers/types.ts'
import { startStubOpenAi } from '#test/support/stub-openai.ts'

export async function setupOpenAiModel(
  options: {
    model?: string
    apiKey?: string
    timeoutMs?: number
    models?: string[]
    maxOutputTokens?: number
    /** Refused response formats (see startStubOpenAi). */
    rejectFormats?: Array<'json_schema' | 'json_object'>
    log?: Logger
    now?: () => number
  } = {},
) {
  const stub = await startStubOpenAi({ models: options.models, rejectFormats: options.rejectFormats })
  onTestFinished(() => stub.close())
  const model = createOpenAiModel({
    apiKey: options.apiKey ?? stub.apiKey,
    baseUrl: stub.baseUrl,
    model: options.model ?? 'gpt-test',
    timeoutMs: options.timeoutMs ?? 5000,
    maxOutputTokens: options.maxOutputTokens,
    log: options.log,
    now: options.now,
  })
  return { stub, model, signal: new AbortController().signal }
}

export function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    topic: 'solid-state batteries',
    focus: ['manufacturing'],
    depth: 'quick',
    timeframe: 'the last 30 days',
    knownFacts: [],
    maxQueries: 3,
    ...overrides,
  }
}

export function synthesisInput(overrides: Partial<SynthesisInput> = {}): SynthesisInput {
  return {
    topic: 'solid-state batteries',
    focus: [],
    reportStyle: 'executive',
    sources: [
      {
        id: 1,
        url: 'https://example.com/pilot-line',
        title: 'Pilot line opens',
        publishedDate: '2025-03-04T10:00:00Z',
        text: 'A pilot line for sulfide cells opened in March.',
      },
      {
        id: 2,
        url: 'https://example.org/yields',
        title: 'Yields improve',
        publishedDate: null,
        text: 'Yields rose for the third month.',
      },
    ],
    knownFacts: [],
    ...overrides,
  }
}
