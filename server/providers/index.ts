// Picks the providers from config. Search: SEARCH_PROVIDER, or the first of Exa, Tavily, Brave and
// SearXNG whose key (or URL) is set, else the keyless open sources (falling back to the local corpus
// when the machine is offline); the local corpus alone when asked for. Model: an OpenAI-compatible one when OPENAI_API_KEY is set, else a
// local Ollama server when one answers with OLLAMA_MODEL pulled, else none: the engine then writes
// with its own extractive synthesizer (server/research/extractive.ts; server/start.ts picks it).
import type { Db } from '#db/database.ts'
import { type Config, DEFAULT_OLLAMA_BASE_URL } from '#server/config.ts'
import type { Logger } from '#server/logger.ts'
import { detectOllama } from '#server/providers/llm/ollama.ts'
import { createOpenAiModel } from '#server/providers/llm/openai.ts'
import { createPageReader, type PageReader } from '#server/providers/reader/page-reader.ts'
import { createArxivSearch } from '#server/providers/search/arxiv.ts'
import { createBraveSearch } from '#server/providers/search/brave.ts'
import { createCorpusSearch } from '#server/providers/search/corpus.ts'
import { createExaSearch } from '#server/providers/search/exa.ts'
import { createGdeltSearch } from '#server/providers/search/gdelt.ts'
import { createHackerNewsSearch } from '#server/providers/search/hackernews.ts'
import { createOpenSearch, withOfflineFallback } from '#server/providers/search/open.ts'
import { createOpenAlexSearch } from '#server/providers/search/openalex.ts'
import { createSearxngSearch } from '#server/providers/search/searxng.ts'
import { createTavilySearch } from '#server/providers/search/tavily.ts'
import { createWikipediaSearch } from '#server/providers/search/wikipedia.ts'
import type { LanguageModel, ProviderTurns, SearchProvider } from '#server/providers/types.ts'

export async function createProviders(
  config: Config,
  db: Db,
  log: Logger,
  /** Each provider's rate shared by every process (server/limits/provider-turns.ts), where one is set. */
  turns: ProviderTurns = () => undefined,
): Promise<{ search: SearchProvider; reader?: PageReader; model: LanguageModel | undefined }> {
  const timeoutMs = config.PROVIDER_TIMEOUT_SECONDS * 1000
  return {
    search: createSearch(config, db, timeoutMs, turns),
    // One per process: its per-site slots and robots.txt cache hold across runs.
    ...(config.READ_PAGES
      ? { reader: createPageReader({ publicUrl: config.PUBLIC_URL, allowHosts: config.READER_ALLOW_HOSTS }) }
      : {}),
    model: await createLanguageModel(config, log, turns),
  }
}

async function createLanguageModel(
  config: Config,
  log: Logger,
  turns: ProviderTurns,
): Promise<LanguageModel | undefined> {
  if (config.OPENAI_API_KEY) {
    const turn = turns('openai')
    return createOpenAiModel({
      ...(turn ? { turn } : {}),
      apiKey: config.OPENAI_API_KEY,
      baseUrl: config.OPENAI_BASE_URL,
      model: config.OPENAI_MODEL,
      embeddingModel: config.OPENAI_EMBEDDING_MODEL,
      maxOutputTokens: config.OPENAI_MAX_OUTPUT_TOKENS,
      timeoutMs: config.PROVIDER_TIMEOUT_SECONDS * 1000,
      log,
    })
  }
  if (config.OLLAMA_BASE_URL === 'none') return undefined
  const ollama = await detectOllama({
    url: config.OLLAMA_BASE_URL ?? DEFAULT_OLLAMA_BASE_URL,
    configured: config.OLLAMA_BASE_URL !== undefined,
    model: config.OLLAMA_MODEL,
    embeddingModel: config.OLLAMA_EMBEDDING_MODEL,
    log,
  })
  if (!ollama) return undefined
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

export function createSearch(
  config: Config,
  db: Db,
  timeoutMs: number,
  turns: ProviderTurns = () => undefined,
): SearchProvider {
  switch (config.SEARCH_PROVIDER) {
    case 'exa': {
      if (!config.EXA_API_KEY) throw new Error('SEARCH_PROVIDER is exa but EXA_API_KEY is not set') // loadConfig refuses this
      const turn = turns('exa')
      return createExaSearch({
        apiKey: config.EXA_API_KEY,
        baseUrl: config.EXA_BASE_URL,
        timeoutMs,
        ...(turn ? { turn } : {}),
      })
    }
    case 'tavily':
      if (!config.TAVILY_API_KEY) throw new Error('SEARCH_PROVIDER is tavily but TAVILY_API_KEY is not set')
      return createTavilySearch({ apiKey: config.TAVILY_API_KEY, baseUrl: config.TAVILY_BASE_URL, timeoutMs })
    case 'brave':
      if (!config.BRAVE_API_KEY) throw new Error('SEARCH_PROVIDER is brave but BRAVE_API_KEY is not set')
      return createBraveSearch({
        apiKey: config.BRAVE_API_KEY,
        baseUrl: config.BRAVE_BASE_URL,
        userAgent: userAgent(config),
        timeoutMs,
      })
    case 'searxng':
      if (!config.SEARXNG_URL) throw new Error('SEARCH_PROVIDER is searxng but SEARXNG_URL is not set')
      return createSearxngSearch({ baseUrl: config.SEARXNG_URL, userAgent: userAgent(config), timeoutMs })
    case 'corpus':
      return createCorpusSearch({ db })
    case 'open':
      return withOfflineFallback(
        createOpenSearch({ sources: createOpenSources(config, timeoutMs), timeoutMs }),
        createCorpusSearch({ db }),
      )
  }
}

/** GDELT, Wikipedia, OpenAlex, arXiv and Hacker News: news first, then background, papers, discussion. */
export function createOpenSources(config: Config, timeoutMs: number): SearchProvider[] {
  const common = { userAgent: userAgent(config), timeoutMs }
  return [
    createGdeltSearch({ ...common, baseUrl: config.GDELT_BASE_URL }),
    createWikipediaSearch({ ...common, baseUrl: config.WIKIPEDIA_BASE_URL }),
    createOpenAlexSearch({
      ...common,
      baseUrl: config.OPENALEX_BASE_URL,
      mailto: config.SEARCH_CONTACT_EMAIL,
      apiKey: config.OPENALEX_API_KEY,
    }),
    createArxivSearch({ ...common, baseUrl: config.ARXIV_BASE_URL }),
    createHackerNewsSearch({ ...common, baseUrl: config.HN_SEARCH_BASE_URL }),
  ]
}

/**
 * Who is asking and how to reach them, as Wikimedia's User-Agent policy and the others' etiquette ask
 * (Brave and SearXNG get it too: a SearXNG owner sees who is searching their instance).
 */
export function userAgent(config: Pick<Config, 'PUBLIC_URL' | 'SEARCH_CONTACT_EMAIL'>): string {
  const contact = config.SEARCH_CONTACT_EMAIL ? `; ${config.SEARCH_CONTACT_EMAIL}` : ''
  return `Sextant/1.0 (+${config.PUBLIC_URL}${contact})`
}
