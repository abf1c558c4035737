// An OpenAI Chat Completions server for tests: the real wire format at POST /v1/chat/completions,
// scripted per call kind (the response_format name: "plan", "synthesis", "verdicts" or "pairs"),
// sensible answers otherwise.
// The benchmark gives it a fixed latency and reads when each answer was served and its token usage.
// With `ollama` it is also an Ollama server (GET /api/tags, /api/version); with `rejectFormats` a
// server that refuses a response_format with the 400 real ones send.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'

export type StubRequest = {
  kind: 'plan' | 'synthesize' | 'judge' | 'pairs' | 'embed' | 'other'
  model: string
  messages: Array<{ role: string; content: string }>
  /** Every message's content, joined: what to assert prompts against. */
  text: string
  responseFormat: { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } } | undefined
  /** The output-token limits the request set, as sent (Ollama and vLLM read `max_tokens`). */
  maxTokens: unknown
  maxCompletionTokens: unknown
  authorization: string | undefined
}

type OpenAiUsage = { prompt_tokens: number; completion_tokens: number }

/** One scripted answer. `content` that is not a string is sent as JSON. */
export type StubReply =
  | {
      content: unknown
      usage?: OpenAiUsage
      finishReason?: 'stop' | 'length' | 'content_filter'
      /** Each occurrence of this text in the body is sent as bytes that are not UTF-8 (0xC3 0x28). */
      invalidUtf8Marker?: string
    }
  | { refusal: string }
  | { status: number; headers?: Record<string, string>; error?: { message: string; type?: string; code?: string } }
  /** A 200 whose body claims to be JSON and is not. */
  | { garbage: string }
  /** Never answer (the client's timeout has to end it). */
  | 'hang'

export type StubScript = StubReply | ((request: StubRequest) => StubReply)

/** One completion sent: when the request arrived and its response finished (epoch ms), and its usage. */
export type StubOpenAiServed = {
  kind: StubRequest['kind']
  /** The request's `Topic:` line, which names the run's topic in every prompt the engine writes. */
  topic: string | undefined
  /** An embedding request's texts (it has no prompt, so no `Topic:` line). */
  text?: string
  promptTokens: number
  completionTokens: number
  startedAt: number
  endedAt: number
}

export type StubOpenAi = {
  url: string
  /** The client's baseURL. */
  baseUrl: string
  apiKey: string
  requests: StubRequest[]
  /** Every successful completion, in the order they finished. */
  served: StubOpenAiServed[]
  /** Queue answers for the next plan calls, in order; once the queue is empty the default answers. */
  onPlan: (...replies: StubScript[]) => void
  onSynthesize: (...replies: StubScript[]) => void
  onJudge: (...replies: StubScript[]) => void
  /** The second reading's calls (response_format "pairs"). */
  onPairs: (...replies: StubScript[]) => void
  /** Queue answers for the next embedding calls (a `status` reply fails one). */
  onEmbed: (...replies: StubScript[]) => void
  /** Requests to Ollama's own API (/api/...), by path: what start-up probed. */
  probes: string[]
  /** Drops scripted answers not yet used, so one test's script cannot leak into the next. */
  reset: () => void
  close: () => Promise<void>
}

export async function startStubOpenAi(
  options: {
    apiKey?: string /** When set, any other model gets OpenAI's 404 model_not_found. */
    models?: string[]
    /** Each completion waits this long before it is sent, as a real model takes time. */
    latencyMs?: number
    /** Answers calls no queued script covers, instead of the built-in answers. */
    reply?: (request: StubRequest) => StubReply
    /** Response formats refused with a 400, as Groq (json_schema) and LM Studio (json_object) do. */
    rejectFormats?: Array<'json_schema' | 'json_object'>
    /** Also speak Ollama's API, with these models pulled; `hang`: take the connection, never answer it. */
    ollama?: { models: string[]; hang?: boolean }
    /** How the usage it reports counts tokens: 4 characters a token unless a test needs a real tokenizer. */
    countTokens?: (text: string) => number
  } = {},
): Promise<StubOpenAi> {
  const apiKey = options.apiKey ?? 'sk-test-stub'
  const requests: StubRequest[] = []
  const served: StubOpenAiServed[] = []
  const probes: string[] = []
  const queues: Record<StubRequest['kind'], StubScript[]> = {
    plan: [],
    synthesize: [],
    judge: [],
    pairs: [],
    embed: [],
    other: [],
  }

  // POST /v1/embeddings: a bag of words hashed into 256 dimensions, so texts sharing words are near.
  async function embeddings(req: http.IncomingMessage, res: http.ServerResponse) {
    const startedAt = now()
    let body: { model?: string; input?: string | string[]; encoding_format?: string }
    try {
      body = JSON.parse(await readBody(req))
    } catch {
      return sendError(res, 400, { message: 'We could not parse the JSON body of your request.' })
    }
    const texts = Array.isArray(body.input) ? body.input : [String(body.input ?? '')]
    const request: StubRequest = {
      kind: 'embed',
      model: String(body.model),
      messages: [],
      text: texts.join('\n'),
      responseFormat: undefined,
      maxTokens: undefined,
      maxCompletionTokens: undefined,
      authorization: req.headers.authorization,
    }
    requests.push(request)
    if (request.authorization !== `Bearer ${apiKey}`)
      return sendError(res, 401, { message: 'Incorrect API key provided.' })
    const script = queues.embed.shift()
    const reply = typeof script === 'function' ? script(request) : script
    if (reply && reply !== 'hang' && 'status' in reply)
      return sendError(res, reply.status, reply.error ?? { message: 'stub failure' })
    if (options.latencyMs) await sleep(options.latencyMs)
    const data = texts.map((text, index) => {
      const vector = bagOfWords(text)
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector
      return { object: 'embedding', index, embedding }
    })
    const tokens = texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0)
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        object: 'list',
        data,
        model: request.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      }),
    )
    served.push({
      kind: 'embed',
      topic: undefined,
      text: request.text,
      promptTokens: tokens,
      completionTokens: 0,
      startedAt,
      endedAt: now(),
    })
  }

  // Ollama's own API: GET /api/tags lists the pulled models, GET /api/version its version.
  function ollamaApi(req: http.IncomingMessage, res: http.ServerResponse) {
    probes.push(req.url ?? '')
    if (options.ollama?.hang) return
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    if (req.url === '/api/version') return res.end(JSON.stringify({ version: '0.12.3' }))
    const models = (options.ollama?.models ?? []).map((name) => ({
      name,
      model: name,
      modified_at: '2025-06-01T10:00:00.000000000Z',
      size: 4_920_753_328,
      digest: '46e0c10c039e019119339687c3c1757cc81b9da49709a3b3924863ba87ca666e',
      details: { format: 'gguf', family: 'llama', parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
    }))
    res.end(JSON.stringify({ models }))
  }

  const server = http.createServer(async (req, res) => {
    const startedAt = now()
    if (options.ollama && req.method === 'GET' && req.url?.startsWith('/api/')) return ollamaApi(req, res)
    if (req.method === 'POST' && req.url === '/v1/embeddings') return embeddings(req, res)
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return sendError(res, 404, { message: `Unknown request URL: ${req.method} ${req.url}`, code: 'unknown_url' })
    }
    let body: Record<string, unknown>
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>
    } catch {
      return sendError(res, 400, { message: 'We could not parse the JSON body of your request.' })
    }
    const request = recordOf(body, req.headers.authorization)
    requests.push(request)
    if (request.authorization !== `Bearer ${apiKey}`) {
      return sendError(res, 401, {
        message: `Incorrect API key provided: ${request.authorization?.slice(7, 14) ?? '(none)'}***.`,
        code: 'invalid_api_key',
      })
    }
    if (options.models && !options.models.includes(request.model)) {
      return options.ollama
        ? sendError(res, 404, {
            message: `model "${request.model}" not found, try pulling it first`,
            type: 'not_found_error',
          })
        : sendError(res, 404, {
            message: `The model \`${request.model}\` does not exist or you do not have access to it.`,
            code: 'model_not_found',
          })
    }
    const format = request.responseFormat?.type
    if (format === 'json_schema' && options.rejectFormats?.includes('json_schema')) {
      return sendError(res, 400, { message: 'This model does not support response format `json_schema`.' })
    }
    if (format === 'json_object' && options.rejectFormats?.includes('json_object')) {
      return sendError(res, 400, { message: "'response_format.type' must be 'json_schema' or 'text'" })
    }
    const script = queues[request.kind].shift() ?? options.reply ?? defaultReply
    const reply = typeof script === 'function' ? script(request) : script
    if (options.latencyMs) await sleep(options.latencyMs)
    const usage = send(res, request, reply, options.countTokens)
    if (usage) {
      res.once('finish', () =>
        served.push({
          kind: request.kind,
          topic: /^Topic: (.+)$/m.exec(request.text)?.[1],
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          startedAt,
          endedAt: now(),
        }),
      )
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    baseUrl: `${url}/v1`,
    apiKey,
    requests,
    served,
    probes,
    onPlan: (...replies) => queues.plan.push(...replies),
    onSynthesize: (...replies) => queues.synthesize.push(...replies),
    onJudge: (...replies) => queues.judge.push(...replies),
    onPairs: (...replies) => queues.pairs.push(...replies),
    onEmbed: (...replies) => queues.embed.push(...replies),
    reset: () => {
      for (const queue of Object.values(queues)) queue.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections() // hung requests hold their sockets open
        server.close(() => resolve())
      }),
  }
}

/** The engine's response_format names, by the call kind they belong to. */
const KINDS = new Map<string | undefined, StubRequest['kind']>([
  ['plan', 'plan'],
  ['synthesis', 'synthesize'],
  ['verdicts', 'judge'],
  ['pairs', 'pairs'],
])

function recordOf(body: Record<string, unknown>, authorization: string | undefined): StubRequest {
  const messages = (Array.isArray(body.messages) ? body.messages : []).map((message: Record<string, unknown>) => ({
    role: String(message.role),
    content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  }))
  const responseFormat = body.response_format as StubRequest['responseFormat']
  // Without json_schema (JSON mode, or no response_format) the schema's name is in the system prompt.
  const name = responseFormat?.json_schema?.name ?? /JSON schema "(\w+)"/.exec(messages[0]?.content ?? '')?.[1]
  return {
    kind: KINDS.get(name) ?? 'other',
    model: String(body.model),
    messages,
    text: messages.map((message) => message.content).join('\n'),
    responseFormat,
    maxTokens: body.max_tokens,
    maxCompletionTokens: body.max_completion_tokens,
    authorization,
  }
}

/** The pairs of a second reading's prompt (server/providers/llm/judge.ts, pairMessages). */
export function pairPrompt(text: string): Array<{ pair: number; claim: string; known: string }> {
  return [...text.matchAll(/^Pair (\d+): <claim>(.*)<\/claim> <memory>(.*)<\/memory>$/gm)].map((match) => ({
    pair: Number(match[1]),
    claim: match[2] ?? '',
    known: match[3] ?? '',
  }))
}

/** Answers made from the prompt itself, so engine tests need not script every call. */
export function defaultReply(request: StubRequest): StubReply {
  const topic = /^Topic: (.+)$/m.exec(request.text)?.[1] ?? 'the topic'
  if (request.kind === 'plan') {
    return { content: { queries: [topic, `${topic} latest developments`, `${topic} analysis`] } }
  }
  if (request.kind === 'judge') {
    // Confirms a claim that memory states word for word; everything else is new.
    const memory = [...request.text.matchAll(/^M(\d+): <memory>(.*)<\/memory>$/gm)]
    const verdicts = [...request.text.matchAll(/^Claim (\d+): <claim>(.*)<\/claim>/gm)].map((match) => {
      const same = memory.find((found) => found[2] === match[2])
      return same
        ? { claim: Number(match[1]), verdict: 'confirmed', match: Number(same[1]) }
        : { claim: Number(match[1]), verdict: 'new', match: null }
    })
    return { content: { verdicts } }
  }
  if (request.kind === 'pairs') {
    // Confirms a pair whose two claims are word for word the same; everything else is new.
    const answers = pairPrompt(request.text).map(({ pair, claim, known }) => ({
      pair,
      verdict: claim === known ? 'confirmed' : 'new',
    }))
    return { content: { answers } }
  }
  if (request.kind === 'synthesize') {
    const sources = synthesisSources(request.text)
    const titles = /exactly these section titles[^[]*(\[.*\])/.exec(request.text)?.[1]
    const sections = titles ? (JSON.parse(titles) as string[]) : null
    return {
      content: {
        headline: `What is new on ${topic}`,
        // Each source's first sentence, quoted word for word, as a faithful model would.
        findings: sources.flatMap((source) => {
          const sentence = firstSentence(source.text)
          return sentence ? [{ text: sentence, quote: sentence, sourceIds: [source.id] }] : []
        }),
        sections:
          sections?.map((title, index) => {
            const source = sources[index % Math.max(1, sources.length)]
            return { title, body: source ? `${source.title} [${source.id}].` : 'No source covers this.' }
          }) ?? null,
        implications: sources.length ? `Worth watching [${sources[0]?.id}].` : null,
        gaps: [],
      },
    }
  }
  return { status: 400, error: { message: 'The stub has no default answer for this request.' } }
}

/** The numbered sources of a synthesis prompt: "[n] Title (date) url" and the text below it. */
export function synthesisSources(prompt: string): Array<{ id: number; title: string; text: string }> {
  const headers = [...prompt.matchAll(/^\[(\d+)\] (.+?) \([^)]*\) \S+$/gm)]
  return headers.map((match, index) => {
    const start = (match.index ?? 0) + match[0].length
    const end = headers[index + 1]?.index ?? prompt.length
    return { id: Number(match[1]), title: match[2] as string, text: prompt.slice(start, end).trim() }
  })
}

function firstSentence(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim()
  const sentence = /^.{12,300}?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat.slice(0, 200).replace(/\s\S*$/, '')
  return sentence.split(' ').length >= 3 ? sentence : undefined
}

/** A unit vector of 256 dimensions: each word of 3+ letters adds 1 at a hashed position. */
export function bagOfWords(text: string): number[] {
  const vector = new Array<number>(256).fill(0)
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    let hash = 2166136261
    for (const char of word) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619)
    vector[(hash >>> 0) % 256] = (vector[(hash >>> 0) % 256] as number) + 1
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

/** Sends the reply; returns the usage when it was a completion. */
const FOUR_CHARACTERS_A_TOKEN = (text: string) => Math.ceil(text.length / 4)

function send(
  res: http.ServerResponse,
  request: StubRequest,
  reply: StubReply,
  countTokens: (text: string) => number = FOUR_CHARACTERS_A_TOKEN,
): OpenAiUsage | undefined {
  if (reply === 'hang') return
  if ('status' in reply) {
    sendError(res, reply.status, reply.error ?? { message: 'stub failure' }, reply.headers)
    return
  }
  if ('garbage' in reply) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(reply.garbage)
    return
  }
  const refusal = 'refusal' in reply ? reply.refusal : null
  const content =
    'content' in reply ? (typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content)) : null
  const usage = ('usage' in reply && reply.usage) || {
    prompt_tokens: countTokens(request.text),
    completion_tokens: countTokens(content ?? refusal ?? ''),
  }
  const completion = {
    id: `chatcmpl-stub${Math.random().toString(36).slice(2, 12)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal, annotations: [] },
        logprobs: null,
        finish_reason: ('finishReason' in reply && reply.finishReason) || 'stop',
      },
    ],
    usage: {
      ...usage,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_stub',
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${completion.id}` })
  const body = JSON.stringify(completion)
  const marker = 'invalidUtf8Marker' in reply ? reply.invalidUtf8Marker : undefined
  if (!marker) res.end(body)
  else
    res.end(
      Buffer.concat(
        body
          .split(marker)
          .flatMap((part, index) => [...(index > 0 ? [Buffer.from([0xc3, 0x28])] : []), Buffer.from(part)]),
      ),
    )
  return usage
}

/** OpenAI's error shape: { error: { message, type, param, code } }. */
function sendError(
  res: http.ServerResponse,
  status: number,
  error: { message: string; type?: string; code?: string },
  headers: Record<string, string> = {},
) {
  const type = error.type ?? (status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error')
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify({ error: { message: error.message, type, param: null, code: error.code ?? null } }))
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (data += chunk))
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })
}

/** Wall-clock milliseconds with the monotonic clock's precision, comparable across the process. */
function now(): number {
  return performance.timeOrigin + performance.now()
}
