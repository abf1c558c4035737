// Structured answers from servers that cannot all constrain output to a JSON schema. OpenAI, Gemini,
// vLLM and Ollama 0.5+ accept `response_format: json_schema`; most Groq models refuse it with a 400,
// Anthropic's compatibility layer and some OpenRouter routes ignore it and answer in prose, and
// LM Studio refuses `json_object`. So a model steps down, once for the process, from json_schema to
// json_object (JSON mode, the schema written into the system prompt) to no response_format at all,
// and every answer is parsed leniently and checked with zod, with one repair request when it fails.
import { APIError } from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import type { ChatCompletion, ChatCompletionCreateParams } from 'openai/resources/chat/completions'
import { z } from 'zod'
import { ProviderError } from '#server/providers/types.ts'

export type OutputMode = 'json_schema' | 'json_object' | 'prompt'

export type Message = { role: 'system' | 'user' | 'assistant'; content: string }

/** A zod schema with what each output mode sends for it, computed once (they never change). */
export type OutputFormat<T> = {
  name: string
  schema: z.ZodType<T>
  responseFormat: ChatCompletionCreateParams['response_format']
  /** The instruction JSON mode appends to the system message: the schema, compact. */
  instruction: string
}

export function outputFormat<T>(schema: z.ZodType<T>, name: string): OutputFormat<T> {
  const jsonSchema = JSON.stringify(compact(z.toJSONSchema(schema)))
  return {
    name,
    schema,
    responseFormat: zodResponseFormat(schema, name),
    instruction:
      `Answer with one JSON object and nothing else: no prose, no code fences. ` +
      `It must match the JSON schema "${name}": ${jsonSchema}`,
  }
}

/** The request's response_format and messages in a mode. */
export function requestFor(
  mode: OutputMode,
  format: OutputFormat<unknown>,
  messages: Message[],
): { messages: Message[]; response_format?: ChatCompletionCreateParams['response_format'] } {
  if (mode === 'json_schema') return { messages, response_format: format.responseFormat }
  const [first, ...rest] = messages
  const withSchema =
    first?.role === 'system'
      ? [{ role: 'system' as const, content: `${first.content}\n\n${format.instruction}` }, ...rest]
      : [{ role: 'system' as const, content: format.instruction }, ...messages]
  return mode === 'json_object'
    ? { messages: withSchema, response_format: { type: 'json_object' } }
    : { messages: withSchema }
}

/**
 * The answer, or why it cannot be used. `answer` is set when the model did answer, in text that is
 * not the schema's JSON: a server that constrained output would never send that, and one request
 * showing the model its answer and what is wrong with it may fix it.
 */
export type Reading<T> = { value: T } | { unusable: string; answer?: string }

export function readAnswer<T>(completion: ChatCompletion, format: OutputFormat<T>): Reading<T> {
  const choice = completion.choices[0]
  if (choice?.finish_reason === 'length') return { unusable: 'it was cut off at the token limit' }
  if (choice?.finish_reason === 'content_filter') return { unusable: 'it was stopped by a content filter' }
  if (choice?.message.refusal) return { unusable: `the model refused: ${choice.message.refusal}` }
  const content = choice?.message.content
  if (!content?.trim()) return { unusable: 'the answer was empty' }
  let json: unknown
  try {
    json = JSON.parse(jsonText(content))
  } catch (error) {
    return { unusable: `it was not JSON (${(error as Error).message})`, answer: content }
  }
  const parsed = format.schema.safeParse(json)
  if (parsed.success) return { value: parsed.data }
  return { unusable: `it did not match the schema: ${clip(z.prettifyError(parsed.error), 2000)}`, answer: content }
}

/** The repair request: the same conversation, the unusable answer, and what is wrong with it. */
export function repairMessages(messages: Message[], answer: string, problem: string): Message[] {
  return [
    ...messages,
    { role: 'assistant', content: answer },
    {
      role: 'user',
      content: `That answer cannot be used: ${problem}\nAnswer again with only the corrected JSON object.`,
    },
  ]
}

/**
 * The server refused the response_format itself (a 400 naming it), rather than the request: Groq
 * says "This model does not support response format `json_schema`", OpenAI names the parameter,
 * LM Studio says "'response_format.type' must be 'json_schema' or 'text'".
 */
export function refusesResponseFormat(error: unknown): boolean {
  if (!(error instanceof ProviderError) || (error.status !== 400 && error.status !== 422)) return false
  const cause = error.cause
  const text = cause instanceof APIError ? `${cause.message} ${String(cause.param ?? '')}` : error.message
  return /response[_ ]?format|json[_ ]?schema|json_object|structured output/i.test(text)
}

/**
 * Models without constrained output wrap JSON in code fences, put prose around it, or think aloud
 * first (<think>...</think>); the JSON is what lies between the outermost braces of what is left.
 */
function jsonText(content: string): string {
  const text = content.replace(/<think>[\s\S]*?<\/think>/g, '').trim()
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text)?.[1]?.trim() ?? text
  if (fenced.startsWith('{')) return fenced
  const start = fenced.indexOf('{')
  const end = fenced.lastIndexOf('}')
  return start >= 0 && end > start ? fenced.slice(start, end + 1) : fenced
}

/** The schema without what only a validator needs: fewer tokens in every JSON-mode prompt. */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact)
  if (!schema || typeof schema !== 'object') return schema
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => {
        if (key === '$schema' || key === 'additionalProperties') return false
        // z.number().int() bounds integers to the safe range; no model needs telling.
        return !((key === 'minimum' || key === 'maximum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER)
      })
      .map(([key, value]) => [key, compact(value)]),
  )
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
