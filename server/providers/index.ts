// Picks the providers from config: Exa when EXA_API_KEY is set, else the local corpus; an
// OpenAI-compatible model when OPENAI_API_KEY is set, else the extractive synthesizer.
import type { Db } from '#db/database.ts'
import type { Config } from '#server/config.ts'
import { createExtractiveModel } from '#server/providers/llm/extractive.ts'
import { createOpenAiModel } from '#server/providers/llm/openai.ts'
import { createCorpusSearch } from '#server/providers/search/corpus.ts'
import { createExaSearch } from '#server/providers/search/exa.ts'
import type { LanguageModel, SearchProvider } from '#server/providers/types.ts'

export function createProviders(config: Config, db: Db): { search: SearchProvider; model: LanguageModel } {
  const timeoutMs = config.PROVIDER_TIMEOUT_SECONDS * 1000
  return {
    search: config.EXA_API_KEY
      ? createExaSearch({ apiKey: config.EXA_API_KEY, baseUrl: config.EXA_BASE_URL, timeoutMs })
      : createCorpusSearch({ db }),
    model: config.OPENAI_API_KEY
      ? createOpenAiModel({
          apiKey: config.OPENAI_API_KEY,
          baseUrl: config.OPENAI_BASE_URL,
          model: config.OPENAI_MODEL,
          embeddingModel: config.OPENAI_EMBEDDING_MODEL,
          maxOutputTokens: config.OPENAI_MAX_OUTPUT_TOKENS,
          timeoutMs,
        })
      : createExtractiveModel(),
  }
}
