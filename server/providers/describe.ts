// What the start-up log and banner say about the search and model providers in use, and which
// settings change them: a newcomer sees at once whether Sextant searches the web or the invented
// sample, and writes with a model or without one.
import { type Config, DEFAULT_OLLAMA_BASE_URL } from '#server/config.ts'
import type { LanguageModel, SearchProvider } from '#server/providers/types.ts'

export type ProviderLine = { inUse: string; change: string }
export type ProviderDescription = { search: ProviderLine; model: ProviderLine }

// The keyed and self-hosted search settings, in the order they are picked (server/config.ts).
const KEYED_SEARCH_SETTINGS = ['EXA_API_KEY', 'TAVILY_API_KEY', 'BRAVE_API_KEY', 'SEARXNG_URL']

export function describeProviders(
  config: Pick<Config, 'SEARCH_PROVIDER' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OLLAMA_BASE_URL' | 'OLLAMA_MODEL'>,
  providers: { search: SearchProvider; model: LanguageModel },
  /** The corpus's documents, when it is the search provider. */
  corpus?: { documents: number; invented: number },
): ProviderDescription {
  return { search: describeSearch(config, providers.search, corpus), model: describeModel(config, providers.model) }
}

function describeSearch(
  config: Pick<Config, 'SEARCH_PROVIDER'>,
  search: SearchProvider,
  corpus?: { documents: number; invented: number },
): ProviderLine {
  const keyed = orList(KEYED_SEARCH_SETTINGS)
  if (config.SEARCH_PROVIDER === 'corpus') {
    const inUse =
      corpus && corpus.invented === 0
        ? `the local corpus (${corpus.documents} documents indexed on this server), not the web`
        : 'the sample corpus bundled with Sextant: invented articles for trying it offline, not the web'
    return {
      inUse,
      change: `To search the web: SEARCH_PROVIDER=open (no key needed), or no SEARCH_PROVIDER and ${keyed}.`,
    }
  }
  if (config.SEARCH_PROVIDER === 'open') {
    return {
      inUse: `${search.name}, no key needed (offline, the local corpus answers instead)`,
      change: `For a keyed or self-hosted search: ${keyed}. For the offline sample: SEARCH_PROVIDER=corpus.`,
    }
  }
  return {
    inUse: `${search.name} (SEARCH_PROVIDER=${config.SEARCH_PROVIDER})`,
    change: 'SEARCH_PROVIDER=open searches the keyless open sources; SEARCH_PROVIDER=corpus, the offline sample.',
  }
}

function describeModel(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OLLAMA_BASE_URL' | 'OLLAMA_MODEL'>,
  model: LanguageModel,
): ProviderLine {
  if (model.kind === 'extractive') {
    return {
      inUse: `${model.name}: reports quote sentences of the pages read`,
      change: `For a model: OPENAI_API_KEY (with OPENAI_BASE_URL, any OpenAI-compatible API), or a running Ollama with ${config.OLLAMA_MODEL} pulled.`,
    }
  }
  if (config.OPENAI_API_KEY) {
    return {
      inUse: `${model.name} at ${config.OPENAI_BASE_URL ?? 'OpenAI'} (OPENAI_API_KEY)`,
      change: 'OPENAI_MODEL picks another model; OPENAI_BASE_URL another OpenAI-compatible API.',
    }
  }
  return {
    inUse: `${model.name} on Ollama at ${config.OLLAMA_BASE_URL ?? DEFAULT_OLLAMA_BASE_URL}`,
    change: 'OLLAMA_MODEL picks another model; OPENAI_API_KEY an OpenAI-compatible API instead.',
  }
}

/** "A, B or C". */
function orList(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}
