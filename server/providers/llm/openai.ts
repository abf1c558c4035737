// The LanguageModel over any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM,
// OpenRouter, Groq, Gemini, Anthropic): structured output with a JSON schema where the server holds
// the model to it, JSON mode where it does not (structured-output.ts), every answer checked by zod.
import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai'
import type { ChatCompletion } from 'openai/resources/chat/completions'
import { z } from 'zod'
import { VECTOR_DIMENSIONS } from '#server/claims/vectors.ts'
import type { Logger } from '#server/logger.ts'
import {
  JudgeSchema,
  judgeMessages,
  PairsSchema,
  pairMessages,
  toPairVerdicts,
  toVerdicts,
} from '#server/providers/llm/judge.ts'
import {
  judgeMaxOutputTokens,
  PLAN_MAX_OUTPUT_TOKENS,
  SYNTHESIS_MAX_OUTPUT_TOKENS,
  tokenLimitParameter,
} from '#server/providers/llm/output-limits.ts'
import { planMessages, synthesisMessages } from '#server/providers/llm/prompts.ts'
import {
  type Message,
  type OutputFormat,
  type OutputMode,
  outputFormat,
  readAnswer,
  refusesResponseFormat,
  repairMessages,
  requestFor,
} from '#server/providers/llm/structured-output.ts'
import { callWithRetries, isRetryableStatus, parseRetryAfter } from '#server/providers/retry.ts'
import {
  type LanguageModel,
  PlanParseError,
  ProviderError,
  type Synthesis,
  type Turn,
  type Usage,
} from '#server/providers/types.ts'

const PROVIDER = 'openai'
const MAX_QUERY_CHARS = 200

// Strict structured output wants every field present, so "absent" is null on the wire.
const PlanSchema = z.object({ queries: z.array(z.string()) })
const SynthesisSchema = z.object({
  headline: z.string(),
  findings: z.array(z.object({ text: z.string(), quote: z.string(), sourceIds: z.array(z.number().int()) })),
  sections: z.array(z.object({ title: z.string(), body: z.string() })).nullable(),
  implications: z.string().nullable(),
  gaps: z.array(z.string()),
})

// Converting a schema to the API's JSON schema costs about 2 ms each time; they never change.
const PLAN_FORMAT = outputFormat(PlanSchema, 'plan')
const SYNTHESIS_FORMAT = outputFormat(SynthesisSchema, 'synthesis')
const JUDGE_FORMAT = outputFormat(JudgeSchema, 'verdicts')
const PAIRS_FORMAT = outputFormat(PairsSchema, 'pairs')

/** The answer could not be used: refused, empty, truncated, not JSON, or not the schema. */
type Unusable = { unusable: string }

type Request = ReturnType<typeof requestFor>

type ModelSettings = { apiKey: string; baseUrl: string; model: string }
const OPENAI_SETTINGS: ModelSettings = { apiKey: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL', model: 'OPENAI_MODEL' }

/** Answers in a row that are not the schema's JSON before json_schema is taken to be ignored. */
const OFF_SCHEMA_TO_STEP_DOWN = 3
/** How long a response format stepped down from is left before it is tried again. */
export const RETRY_BETTER_MODE_MS = 15 * 60_000

/** An answer and what its call cost: every attempt's tokens, a repair request's included. */
type Answer<T> = ({ value: T } | Unusable) & { usage: Usage }

export function createOpenAiModel(options: {
  apiKey: string
  baseUrl?: string
  model: string
  /** For claim matching; 'none' turns embeddings off. */
  embeddingModel?: string
  timeoutMs: number
  /** OPENAI_MAX_OUTPUT_TOKENS: one output limit for every call instead of the built-in ones. */
  maxOutputTokens?: number
  /** Says once when the server turns out not to support JSON-schema output. */
  log?: Logger
  /** The settings errors tell a user to check: OPENAI_* unless the server was found another way. */
  settings?: ModelSettings
  /** The clock that decides when a mode stepped down from is tried again (tests set it). */
  now?: () => number
  /** The model's rate, shared by every process (OPENAI_REQUESTS_PER_MINUTE): chat and embeddings. */
  turn?: Turn
}): LanguageModel {
  const turn = options.turn ? { turn: options.turn } : {}
  // Everything explicit, so the SDK reads no OPENAI_* variables behind the config module's back.
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? 'https://api.openai.com/v1',
    organization: null,
    project: null,
    maxRetries: 0,
  })
  const classify = (error: unknown) => classifyOpenAiError(error, options)

  const limitField = tokenLimitParameter(options.baseUrl)

  // How this server gives structured answers (see structured-output.ts), learnt from its answers. A
  // 400 or 422 that names the response format is the server's word: the next mode down at once. An
  // answer that is not the schema's JSON may be one glitch (a truncated answer, a proxy): only
  // OFF_SCHEMA_TO_STEP_DOWN in a row say the server ignores the schema. A mode stepped down from is
  // tried again after RETRY_BETTER_MODE_MS (a server is upgraded, a proxy fixed), and left again at
  // its first failure. Each change is logged.
  const now = options.now ?? (() => Date.now())
  let mode: OutputMode = 'json_schema'
  let offSchemaInARow = 0
  let steppedDownAt = 0
  let onTrial = false
  function stepDown(from: OutputMode, reason: string) {
    if (mode !== from) return // a concurrent call got there first
    mode = from === 'json_schema' ? 'json_object' : 'prompt'
    offSchemaInARow = 0
    onTrial = false
    steppedDownAt = now()
    const next = mode === 'json_object' ? 'JSON mode, the schema in the prompt' : 'the schema in the prompt alone'
    options.log?.warn(
      { model: options.model, baseUrl: options.baseUrl, from, mode, reason },
      `the model server did not give ${options.model} response_format ${from}: asking with ${next} for now`,
    )
  }
  function modeNow(): OutputMode {
    if (mode !== 'json_schema' && !onTrial && now() - steppedDownAt >= RETRY_BETTER_MODE_MS) {
      const from = mode
      mode = mode === 'prompt' ? 'json_object' : 'json_schema'
      onTrial = true
      options.log?.info(
        { model: options.model, baseUrl: options.baseUrl, from, mode },
        `asking ${options.model} with response_format ${mode} again`,
      )
    }
    return mode
  }
  /** An answer in `asked` mode that was (or was not) the schema's JSON. */
  function answered(asked: OutputMode, usable: boolean, reason = '') {
    if (asked !== mode) return
    if (usable) {
      offSchemaInARow = 0
      onTrial = false
      return
    }
    if (asked !== 'json_schema') return
    offSchemaInARow += 1
    if (onTrial || offSchemaInARow >= OFF_SCHEMA_TO_STEP_DOWN) stepDown('json_schema', reason)
  }

  // `create`, not `parse`: `parse` throws on an answer it cannot read and the completion's usage is
  // lost with it, while tokens spent on an unusable answer are still spent. So the answer is read
  // here, with the schema's zod parser, and every attempt's tokens count.
  async function complete<T>(
    messages: Message[],
    format: OutputFormat<T>,
    maxOutputTokens: number,
    signal: AbortSignal,
  ): Promise<Answer<T>> {
    const limit = { [limitField]: options.maxOutputTokens ?? maxOutputTokens }
    const usage: Usage = { inputTokens: 0, outputTokens: 0 }
    async function ask(request: Request): Promise<ChatCompletion | Unusable> {
      return callWithRetries(
        async (attemptSignal) => {
          let completion: ChatCompletion
          try {
            completion = await client.chat.completions.create(
              { model: options.model, ...request, ...limit },
              { signal: attemptSignal },
            )
          } catch (error) {
            // A 200 whose body is not JSON: the server's fault in the answer, not worth another try.
            if (error instanceof SyntaxError) return { unusable: 'it was not JSON' }
            throw error
          }
          usage.inputTokens += completion.usage?.prompt_tokens ?? 0
          usage.outputTokens += completion.usage?.completion_tokens ?? 0
          return completion
        },
        { signal, timeoutMs: options.timeoutMs, classify, ...turn },
      )
    }
    // A server that refuses the response_format with a 400 is asked again in the next mode down.
    async function askInMode(
      build: (mode: OutputMode) => Request,
      start: OutputMode = modeNow(),
    ): Promise<{ asked: OutputMode; completion: ChatCompletion | Unusable }> {
      let asked = start
      for (;;) {
        try {
          return { asked, completion: await ask(build(asked)) }
        } catch (error) {
          if (asked === 'prompt' || !refusesResponseFormat(error)) throw error
          stepDown(asked, (error as Error).message)
          asked = asked === 'json_schema' ? 'json_object' : 'prompt'
        }
      }
    }
    try {
      const first = await askInMode((asked) => requestFor(asked, format, messages))
      if ('unusable' in first.completion) return { ...first.completion, usage }
      const read = readAnswer(first.completion, format)
      // Text that is not the schema's JSON, which a server holding the model to the schema never sends.
      answered(first.asked, 'value' in read, 'unusable' in read ? read.unusable : '')
      if ('value' in read || read.answer === undefined) return { ...read, usage }
      const { answer, unusable: problem } = read
      // The repair carries the schema in its prompt: asked in JSON mode when json_schema just gave
      // text that is not the schema's, whatever mode the next call uses.
      const repair = await askInMode(
        (asked) => {
          const request = requestFor(asked, format, messages)
          return { ...request, messages: repairMessages(request.messages, answer, problem) }
        },
        first.asked === 'json_schema' ? 'json_object' : first.asked,
      )
      if ('unusable' in repair.completion) return { ...repair.completion, usage }
      const second = readAnswer(repair.completion, format)
      answered(repair.asked, 'value' in second, 'unusable' in second ? second.unusable : '')
      return 'value' in second ? { value: second.value, usage } : { unusable: second.unusable, usage }
    } catch (error) {
      if (error instanceof ProviderError) error.usage = usage
      throw error
    }
  }

  const embeddingModel =
    options.embeddingModel && options.embeddingModel !== 'none' ? options.embeddingModel : undefined
  const embedding = embeddingModel
    ? {
        embeddingModel,
        async embed(texts: string[], { signal }: { signal: AbortSignal }) {
          return callWithRetries(
            async (attemptSignal) => {
              // OpenAI's third-generation models shorten their own vectors; others are folded later.
              const dimensions = embeddingModel.startsWith('text-embedding-3') ? { dimensions: VECTOR_DIMENSIONS } : {}
              const response = await client.embeddings.create(
                { model: embeddingModel, input: texts, ...dimensions },
                { signal: attemptSignal },
              )
              const data = [...response.data].sort((a, b) => a.index - b.index)
              if (data.length !== texts.length) throw new Error(`${data.length} embeddings for ${texts.length} texts`)
              return {
                vectors: data.map((item) => item.embedding),
                usage: { inputTokens: response.usage?.prompt_tokens ?? 0, outputTokens: 0 },
              }
            },
            { signal, timeoutMs: options.timeoutMs, classify, ...turn },
          )
        },
      }
    : {}

  return {
    ...embedding,
    name: options.model,
    kind: 'model',
    async plan(input, { signal }) {
      const answer = await complete(planMessages(input), PLAN_FORMAT, PLAN_MAX_OUTPUT_TOKENS, signal)
      if ('unusable' in answer) throw new PlanParseError(answer.unusable, answer.usage)
      const queries = cleanQueries(answer.value.queries, input.maxQueries)
      if (queries.length === 0) throw new PlanParseError('it held no queries', answer.usage)
      return { plan: { queries }, usage: answer.usage }
    },
    async synthesize(input, { signal }) {
      const limit = SYNTHESIS_MAX_OUTPUT_TOKENS[input.depth ?? 'deep']
      const answer = await complete(synthesisMessages(input), SYNTHESIS_FORMAT, limit, signal)
      if ('unusable' in answer) {
        throw new ProviderError(PROVIDER, `${options.model} did not return a usable synthesis: ${answer.unusable}`, {
          retryable: false,
          usage: answer.usage,
        })
      }
      const { headline, findings, sections, implications, gaps } = answer.value
      const synthesis: Synthesis = {
        headline: headline.trim(),
        findings: findings
          .map((finding) => ({ text: finding.text.trim(), quote: finding.quote, sourceIds: finding.sourceIds }))
          .filter((finding) => finding.text !== '' && finding.sourceIds.length > 0),
        gaps: gaps.map((gap) => gap.trim()).filter(Boolean),
      }
      if (sections?.length) synthesis.sections = sections
      if (implications?.trim()) synthesis.implications = implications.trim()
      return { synthesis, usage: answer.usage }
    },
    async judgeClaims(request, { signal, topic }) {
      const limit = judgeMaxOutputTokens(request.items.length)
      const answer = await complete(judgeMessages(request, topic), JUDGE_FORMAT, limit, signal)
      if ('unusable' in answer) {
        throw new ProviderError(PROVIDER, `${options.model} did not return usable verdicts: ${answer.unusable}`, {
          retryable: false,
          usage: answer.usage,
        })
      }
      return { verdicts: toVerdicts(answer.value, request.items.length), usage: answer.usage }
    },
    async judgePairs(request, { signal, topic }) {
      const limit = judgeMaxOutputTokens(request.pairs.length)
      const answer = await complete(pairMessages(request, topic), PAIRS_FORMAT, limit, signal)
      if ('unusable' in answer) {
        throw new ProviderError(PROVIDER, `${options.model} did not return usable pair verdicts: ${answer.unusable}`, {
          retryable: false,
          usage: answer.usage,
        })
      }
      return { verdicts: toPairVerdicts(answer.value, request.pairs.length), usage: answer.usage }
    },
  }
}

/** Trimmed, at most 200 characters, distinct regardless of case, at most `maxQueries`. */
function cleanQueries(queries: string[], maxQueries: number): string[] {
  const seen = new Set<string>()
  const kept: string[] = []
  for (const raw of queries) {
    const query = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_CHARS).trim()
    const key = query.toLowerCase()
    if (query === '' || seen.has(key)) continue
    seen.add(key)
    kept.push(query)
    if (kept.length >= maxQueries) break
  }
  return kept
}

/** What the SDK threw, as a ProviderError naming the setting a user would have to fix. */
function classifyOpenAiError(
  error: unknown,
  options: { baseUrl?: string; model: string; timeoutMs: number; settings?: ModelSettings },
) {
  const where = options.baseUrl ?? 'api.openai.com'
  const settings = options.settings ?? OPENAI_SETTINGS
  // Our per-attempt timeout aborts the request; the run's own signal is handled before classify.
  if (error instanceof APIUserAbortError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new ProviderError(PROVIDER, `${where} did not answer within ${options.timeoutMs} ms`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError(PROVIDER, `could not reach ${where} (check ${settings.baseUrl}): ${error.message}`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof APIError && error.status !== undefined) {
    const status = error.status
    if (status === 401 || status === 403) {
      return new ProviderError(PROVIDER, `${where} rejected the API key (${status}): check ${settings.apiKey}`, {
        retryable: false,
        status,
        cause: error,
      })
    }
    if (status === 404) {
      const detail = error.code === 'model_not_found' ? 'does not exist or is not available' : 'was not found'
      return new ProviderError(
        PROVIDER,
        `model "${options.model}" ${detail} at ${where} (404): check ${settings.model} (and ${settings.baseUrl})`,
        { retryable: false, status, cause: error },
      )
    }
    // OpenAI sends retry-after-ms beside the standard header; other servers send only Retry-After.
    const retryAfterMs = Number(error.headers?.get('retry-after-ms') ?? Number.NaN)
    return new ProviderError(PROVIDER, `${where} answered ${status}: ${error.message}`, {
      retryable: isRetryableStatus(status),
      status,
      retryAfterMs: retryAfterMs >= 0 ? retryAfterMs : parseRetryAfter(error.headers?.get('retry-after')),
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new ProviderError(PROVIDER, `unexpected response from ${where} (check ${settings.baseUrl}): ${message}`, {
    retryable: false,
    cause: error,
  })
}
