// Finds an Ollama server at start-up, so that a machine running one researches with a local model
// without any key or setting. One GET /api/tags: it answers only if Ollama is up, and lists the
// models it has pulled, so a missing model is named before any run needs it.
import { z } from 'zod'
import type { Logger } from '#server/logger.ts'

/**
 * How long the probe may take. Nothing listening (no Ollama) is refused at once; this bounds only a
 * host that takes the connection and never answers, and stays small beside the database's start.
 */
export const OLLAMA_PROBE_TIMEOUT_MS = 1000

const TagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) })

export type OllamaServer = {
  /** The OpenAI-compatible API: the server's address and /v1. */
  baseUrl: string
  model: string
  /** Undefined when the server has not pulled the configured embedding model (or it is 'none'). */
  embeddingModel: string | undefined
}

export async function detectOllama(options: {
  /** The server's own address, without /v1. */
  url: string
  model: string
  embeddingModel: string
  /** OLLAMA_BASE_URL was set: a server that does not answer is worth a warning, not a debug line. */
  configured: boolean
  log: Logger
  timeoutMs?: number
}): Promise<OllamaServer | undefined> {
  const { url, model, log } = options
  let installed: string[]
  try {
    const response = await fetch(`${url}/api/tags`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs ?? OLLAMA_PROBE_TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`it answered ${response.status} to GET /api/tags`)
    installed = TagsSchema.parse(await response.json()).models.map((entry) => entry.name)
  } catch (error) {
    const reason = error instanceof z.ZodError ? 'its /api/tags is not an Ollama model list' : messageOf(error)
    const fields = { url, reason }
    if (options.configured)
      log.warn(fields, `no Ollama server at OLLAMA_BASE_URL (${url}): writing reports without a model`)
    else log.debug(fields, 'no Ollama server at its default address')
    return undefined
  }
  if (!has(installed, model)) {
    log.warn(
      { url, model, installed },
      `Ollama at ${url} has no model "${model}": run \`ollama pull ${model}\` (or set OLLAMA_MODEL to a model it has) ` +
        'and restart; until then reports are written without a model',
    )
    return undefined
  }
  const embeddingModel = options.embeddingModel
  const embeds = embeddingModel !== 'none' && has(installed, embeddingModel)
  if (embeddingModel !== 'none' && !embeds) {
    log.info(
      { url, embeddingModel },
      `Ollama has no "${embeddingModel}": claims are matched by their words (\`ollama pull ${embeddingModel}\` for embeddings)`,
    )
  }
  log.info(
    { url, model, embeddingModel: embeds ? embeddingModel : 'none' },
    `no OPENAI_API_KEY: using Ollama at ${url}`,
  )
  return { baseUrl: `${url}/v1`, model, embeddingModel: embeds ? embeddingModel : undefined }
}

/** Ollama lists "llama3.1:latest" for a model pulled as "llama3.1": a name without a tag means :latest. */
function has(installed: string[], model: string): boolean {
  const tagged = model.includes(':') ? model : `${model}:latest`
  return installed.some((name) => name === model || name === tagged)
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'it did not answer in time'
  // fetch's own message is "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  return cause instanceof Error ? cause.message : String(cause)
}
