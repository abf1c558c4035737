// Picks the providers from config: Exa when EXA_API_KEY is set, else the local corpus; an
// OpenAI-compatible model when OPENAI_API_KEY is set, else a local Ollama server when one answers
// with OLLAMA_MODEL pulled, else the extractive synthesizer.
import type { Db } from '#db/database.ts'
import { type Config, DEFAULT_OLLAMA_BASE_URL } from '#server/config.ts'
import type { Logger } from '#server/logger.ts'
import { createExtractiveModel } from '#server/providers/llm/extractive.ts'
import { detectOllama } from '#server/providers/llm/ollama.ts'
import { createOpenAiModel } from '#server/providers/llm/openai.ts'
import { createCorpusSearch } from '#server/providers/search/corpus.ts'
import { createExaSearch } from '#server/providers/search/exa.ts'
import type { LanguageModel, SearchProvider } from '#server/providers/types.ts'

export async function createProviders(
  config: Config,
  db: Db,
  log: Logger,
): Promise<{ search: SearchProvider; model: LanguageModel }> {
  const timeoutMs = config.PROVIDER_TIMEOUT_SECONDS * 1000
  return {
    search: config.EXA_API_KEY
      ? createExaSearch({ apiKey: config.EXA_API_KEY, baseUrl: config.EXA_BASE_URL, timeoutMs })
      : createCorpusSearch({ db }),
    model: await createLanguageModel(config, log),
  }
}

async function createLanguageModel(config: Config, log: Logger): Promise<LanguageModel> {
  if (config.OPENAI_API_KEY) {
    return createOpenAiModel({
      apiKey: config.OPENAI_API_KEY,
      baseUrl: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      embeddingModel: config.OPENAI_EMBEDDING_MODEL,
      maxOutputTokens: config.OPENAI_MAX_OUTPUT_TOKENS,
      timeoutMs: config.PROVIDER_TIMEOUT_SECONDS * 1000,
      log,
    })
  }
  if (config.OLLAMA_BASE_URL === 'none') return createExtractiveModel()
  const ollama = await detectOllama({
    url: config.OLLAMA_BASE_URL ?? DEFAULT_OLLAMA_BASE_URL,
    configured: config.OLLAMA_BASE_URL !== undefined,
    model: config.OLLAMA_MODEL,
    embeddingModel: config.OLLAMA_EMBEDDING_MODEL,
    log,
  })
  if (!ollama) return createExtractiveModel()
  return createOpenAiModel({
    // Ollama ignores the key, but the client will not send a request without one.
    apiKey: 'ollama',
    baseUrl: ollama.baseUrl,
    model: ollama.model,
    embeddingModel: ollama.embeddingModel ?? 'none',
    maxOutputTokens: config.OPENAI_MAX_OUTPUT_TOKENS,
    timeoutMs: config.OLLAMA_TIMEOUT_SECONDS * 1000,
    log,
    settings: { apiKey: 'OLLAMA_BASE_URL', baseUrl: 'OLLAMA_BASE_URL', model: 'OLLAMA_MODEL' },
  })
}
