// The contracts between the research engine and its providers. Adapters: search/exa.ts, tavily.ts,
// brave.ts, searxng.ts, search/corpus.ts and the open sources of search/open.ts (SearchProvider);
// llm/openai.ts, and the engine's own server/research/extractive.ts (LanguageModel).
import type { JudgeRequest, PairRequest, PairVerdict, Verdict } from '#server/claims/classify.ts'
import type { CorpusKind } from '#server/vocabulary/report.ts'

export type Depth = 'quick' | 'deep'
export type ReportStyle = 'executive' | 'bullet' | 'memo' | 'framework'

export type SearchQuery = {
  text: string
  /** ISO date (YYYY-MM-DD): only results published on or after it. Absent for timeframe "all". */
  startPublishedDate?: string
  numResults: number
  /** Characters of page text wanted per result: short for quick, long for deep. */
  maxCharacters: number
}

export type SearchResult = {
  url: string
  title: string
  /** ISO date or datetime as the provider gave it, or null. */
  publishedDate: string | null
  text: string
  /**
   * The text is the source's snippet, abstract or extract, not the page: the page itself is worth
   * reading (Brave, SearXNG, the open sources; Tavily when it sent no raw page text). Absent: the text
   * is the page's (Exa, the corpus, Tavily with raw page text).
   */
  snippetOnly?: boolean
  /** Which source found the result, when a provider asks several ("GDELT", "Wikipedia + arXiv"). */
  foundBy?: string
  /**
   * Found in the local corpus, not on the web: `sample` for an invented document (the sample that
   * ships in corpus/sample), `local` for one indexed on this server. Absent: a page of the web.
   */
  corpus?: CorpusKind
  /**
   * The engine matched the query by its meaning, not its words (Exa): the page may hold none of the
   * query's words (another language) and still be about it. Absent: an engine that matches words
   * found it by some of the query's words (server/research/topicality.ts).
   */
  matchedByMeaning?: boolean
}

/** What a document of the local corpus is: the one list is the report contract's (server/contracts). */
export type { CorpusKind }

/**
 * Something a user should know about how a search was answered: an open source that failed while
 * the others answered, or the local corpus standing in for an unreachable web. The text names no
 * query, so one notice repeated across a run's queries reads the same each time.
 */
export type SearchNotice = { code: 'source_failed' | 'offline_fallback'; message: string }

export type SearchResponse = { results: SearchResult[]; costDollars?: number; notices?: SearchNotice[] }

export interface SearchProvider {
  /** Shown in reports: "exa", "local corpus". */
  readonly name: string
  /** True for the local corpus, which searches documents on this server, not the web. */
  readonly corpus?: boolean
  search(query: SearchQuery, options: { signal: AbortSignal }): Promise<SearchResponse>
}

/** What a framework contributes to planning and writing (see server/vocabulary/frameworks). */
export type FrameworkLens = { id: string; name: string; queryHints: string[]; sections: string[] }

export type PlanInput = {
  topic: string
  objective?: string
  /** Priority areas, already split from the brief's comma-separated focus. */
  focus: string[]
  depth: Depth
  /** Human phrase for the time range, e.g. "the last 30 days". */
  timeframe: string
  framework?: FrameworkLens
  /** Facts memory holds that matter to the brief (a bounded digest): plan for what is new or missing. */
  knownFacts: string[]
  /** The last runs' one-line summaries, "YYYY-MM-DD: headline", newest first. */
  recentRuns?: string[]
  /** What the last run's sources left open: start from these. */
  openQuestions?: string[]
  /** What recent runs searched: vary the angles against these. */
  pastQueries?: string[]
  /** Today (YYYY-MM-DD), and the last run's date on a re-run. */
  today?: string
  lastRunAt?: string
  maxQueries: number
  /**
   * Set for the follow-up round of a deep run: what round one searched, and what its pages say (each
   * page's title and its passage that matters most to the brief).
   */
  followUp?: { queries: string[]; found: string[] }
}

export type Plan = { queries: string[] }

export type Usage = { inputTokens: number; outputTokens: number; costDollars?: number }

export type SourceForSynthesis = {
  id: number
  url: string
  title: string
  publishedDate: string | null
  text: string
  /** The search engine matched the query by its meaning, not its words (SearchResult's). */
  matchedByMeaning?: boolean
}

export type SynthesisInput = {
  topic: string
  objective?: string
  focus: string[]
  reportStyle: ReportStyle
  framework?: FrameworkLens
  /** Numbered from 1; findings cite these ids. Texts are already trimmed to the context budget. */
  sources: SourceForSynthesis[]
  /** What memory already knows that matters to these sources (a bounded digest): not findings again. */
  knownFacts: string[]
  /** The run's depth: a deep report may be longer. Absent counts as deep, so no caller is cut short. */
  depth?: Depth
  recentRuns?: string[]
  today?: string
  lastRunAt?: string
}

/** A claim: what it says, a verbatim span of a source's text that supports it, and the sources. */
export type Finding = { text: string; quote: string; sourceIds: number[] }

export type Synthesis = {
  /** One line. */
  headline: string
  /** Claims, each a self-contained sentence or two with its quote, citing sources by id. */
  findings: Finding[]
  /** For the framework style: section title -> markdown with [n] citations. */
  sections?: Array<{ title: string; body: string }>
  /** For executive and memo styles: implications / recommendation, markdown with [n] citations. */
  implications?: string
  /** What the sources did not answer (drives a deep run's follow-up and the report's open questions). */
  gaps: string[]
  /**
   * Sentences of the pages that state something about the topic and that the report leaves out, as
   * the extractive path writes them (a model reports every fact it finds): memory keeps them, so the
   * next run knows them; one that changes a figure or a date memory held is shown (delta.ts).
   */
  remembered?: Finding[]
}

export interface LanguageModel {
  /** Shown in reports: the model name, or "extractive (no language model)". */
  readonly name: string
  readonly kind: 'model' | 'extractive'
  /** Throws PlanParseError when the answer is not a usable plan; the engine then uses the fallback plan. */
  plan(input: PlanInput, options: { signal: AbortSignal }): Promise<{ plan: Plan; usage: Usage }>
  synthesize(input: SynthesisInput, options: { signal: AbortSignal }): Promise<{ synthesis: Synthesis; usage: Usage }>
  /**
   * Judges, in one call, whether each claim repeats, updates or contradicts one of its candidates from
   * memory. Absent without a model: the rules of server/claims/classify.ts decide alone.
   */
  judgeClaims?(
    request: JudgeRequest,
    options: { signal: AbortSignal; topic: string },
  ): Promise<{ verdicts: Verdict[]; usage: Usage }>
  /**
   * A second reading of the claims whose judge's verdict the rules dispute: each beside the one memory
   * claim in question. Absent without a model.
   */
  judgePairs?(
    request: PairRequest,
    options: { signal: AbortSignal; topic: string },
  ): Promise<{ verdicts: PairVerdict[]; usage: Usage }>
  /** The embedding model `embed` uses; vectors made by another are not compared with its. */
  readonly embeddingModel?: string
  /** Embeddings of the texts, in order (`/v1/embeddings`). Absent without an embedding model. */
  embed?(texts: string[], options: { signal: AbortSignal }): Promise<{ vectors: number[][]; usage: Usage }>
}

/** `usage`: what the unusable answer cost, which the run still pays for. */
/** What a failed model call still cost: PlanParseError and ProviderError carry it when it is known. */
export function usageOf(error: unknown): Usage {
  const usage = error instanceof PlanParseError || error instanceof ProviderError ? error.usage : undefined
  return usage ?? { inputTokens: 0, outputTokens: 0 }
}

export class PlanParseError extends Error {
  readonly usage?: Usage
  constructor(detail: string, usage?: Usage) {
    super(`the planning answer was not a usable plan: ${detail}`)
    this.name = 'PlanParseError'
    this.usage = usage
  }
}

/**
 * A provider failure with what a user can act on. `retryable` drives backoff; `status` when HTTP.
 * `usage`: the tokens a model call billed before it failed (every attempt's), so the run counts them.
 */
export class ProviderError extends Error {
  readonly provider: string
  readonly retryable: boolean
  readonly status?: number
  readonly retryAfterMs?: number
  // Not readonly: the model learns what a failed call cost only after the retries gave up.
  usage?: Usage
  constructor(
    provider: string,
    message: string,
    options: { retryable: boolean; status?: number; retryAfterMs?: number; cause?: unknown; usage?: Usage },
  ) {
    super(message, { cause: options.cause })
    this.name = 'ProviderError'
    this.provider = provider
    this.retryable = options.retryable
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
    this.usage = options.usage
  }
}

/**
 * Every source of a search failed at the network level (refused, no DNS, timed out): the machine is
 * most likely offline. The engine (or withOfflineFallback) can then search the local corpus instead.
 */
export class SearchOfflineError extends ProviderError {
  readonly offline = true
  constructor(provider: string, message: string, options: { cause?: unknown } = {}) {
    super(provider, message, { retryable: false, cause: options.cause })
    this.name = 'SearchOfflineError'
  }
}

/** A provider's rate shared by every process (server/limits/provider-turns.ts). */
export type Turn = {
  /**
   * Waits, if need be, until one more call fits the rate and the concurrency limit, and the provider
   * is not paused. Call what it returns when the call ends, however it ends: that gives its place
   * among the calls running at once back.
   */
  take(signal: AbortSignal): Promise<() => void>
  /** The provider answered 429: every process waits this long before its next call to it. */
  pause(ms: number): Promise<void>
}
/** The turn of each provider that has a shared rate (server/limits/provider-turns.ts); undefined for none. */
export type ProviderTurns = (provider: string) => Turn | undefined
