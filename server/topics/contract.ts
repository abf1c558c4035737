// The topics module's contract (decision 063): what Sextant remembers about one topic of one account,
// as the engine and the rest of the server are handed it; the views every surface shows of it (the
// topic pages, the MCP tools, the markdown export: server/topics/views.ts computes them); and what
// the memory check answers (spec 2.4): a topic's counts, clear in the database, never its content.
// All of memory is stored encrypted; only the counts (runCount, urlsIndexed, factsStored) and times
// sit in clear columns.
import { z } from 'zod'
import type { Polarity, Statements } from '#server/vocabulary/memory.ts'

export const MemoryStatsSchema = z.object({
  runCount: z.int(),
  urlsIndexed: z.int(),
  factsStored: z.int(),
  lastRunAt: z.iso.datetime(),
})

/** The memory check of spec 2.4. */
export type MemoryStats = z.infer<typeof MemoryStatsSchema>

// --- Memory -------------------------------------------------------------------------------------

/** When and in which run something was first learned. */
export type FirstSeen = { runId: string; at: string }

/** How a fact entered memory, when it replaced another. */
export type FactChange = 'updated' | 'contradicted'

/**
 * A fact is a claim: what it says, the verbatim quote that supports it, where, the figures and dates
 * it states, what it is about, and when it was first and last seen.
 */
export type Fact = {
  /** Stable id: a hash of the fact's normalized text, so the same fact from two runs is one fact. */
  id: string
  text: string
  /** The words of a source page that support it; '' for facts stored before quotes were kept. */
  quote: string
  /** Canonical URLs of the sources that support it. */
  sourceUrls: string[]
  statements: Statements
  /** Stemmed words of what it is about (see server/claims/subject.ts). */
  subject: string[]
  polarity: Polarity
  /** The edition of the rules that read statements, subject and polarity (server/topics/facts.ts). */
  readWith?: number
  firstSeen: FirstSeen
  /** When a run last found it still said (ISO); the first seen time until then. */
  lastConfirmed: string
  /** This fact replaced an earlier one (a changed figure, or the opposite statement). */
  supersedes?: { id: string; change: FactChange }
  /** A later fact replaced this one: it is history, not what memory holds true now. */
  supersededBy?: string
  /** Its embedding (server/claims/vectors.ts), made by the content's `vectorModel`. */
  vector?: string
}

export type Source = {
  /** Canonical URL (see server/text/canonical-url.ts). */
  url: string
  title: string
  /** ISO date as the provider gave it, or null when unknown. */
  publishedDate: string | null
  firstSeen: FirstSeen
}

/** A URL a run read; the ledger keeps the 500 most recently read. */
export type LedgerEntry = { url: string; readAt: string }

export type RunRecord = {
  runId: string
  at: string
  newFacts: number
  /** Facts this run found again (0 in records from before claims). */
  confirmedFacts?: number
  newSources: number
  urlsRead: number
  summary?: string
  /** What it searched: the next run varies its angles against these. */
  queries?: string[]
  /** What its sources left open: the next run's plan starts from these. */
  openQuestions?: string[]
}

/** The encrypted part of a topic's memory. */
export type MemoryContent = {
  /** The topic as first written by the user (display form). */
  topic: string
  facts: Fact[]
  sources: Source[]
  ledger: LedgerEntry[]
  /** The most recent runs, newest first (a short history). */
  runs: RunRecord[]
  /** The embedding model that made the facts' vectors. */
  vectorModel?: string
}

/** A claim of a run as memory takes it: classified against what memory held. */
export type ContributedFact = {
  text: string
  quote: string
  sourceUrls: string[]
  statements: Statements
  subject: string[]
  polarity: Polarity
  /** New, or the id of the memory fact it confirms, updates or contradicts. */
  change: { class: 'new' } | { class: 'confirmed' | FactChange; factId: string }
  vector?: string
}

/** What one run adds to a topic's memory. URLs may be raw: merging canonicalizes them. */
export type MemoryContribution = {
  runId: string
  at: Date
  facts: ContributedFact[]
  /** Vectors made in this run for facts memory held without one (or with another model's). */
  vectors?: { model: string; byFact: Record<string, string> }
  sources: Array<{ url: string; title: string; publishedDate: string | null }>
  urlsRead: string[]
  summary?: string
  queries?: string[]
  openQuestions?: string[]
}

export type TopicMemory = MemoryContent & {
  topicId: string
  runCount: number
  urlsIndexed: number
  factsStored: number
  lastRunAt: Date
  expiresAt: Date
}

export const LEDGER_CAP = 500
/** Facts kept per topic, history included; past it, history goes first, then the longest unconfirmed. */
export const FACT_CAP = 2000
export const RUN_HISTORY_CAP = 20
/** Queries and open questions kept per run record. */
export const RUN_THREAD_CAP = 12
export const MEMORY_TTL_DAYS = 30

/** The topic's memory is sealed with a key this server holds but cannot be opened: it is left untouched. */
export class MemoryUnreadableError extends Error {
  constructor(topicId: string) {
    super(`The memory of topic ${topicId} cannot be decrypted; it was left untouched.`)
    this.name = 'MemoryUnreadableError'
  }
}

// --- Views --------------------------------------------------------------------------------------

/**
 * Who reads the view. The pages link a corpus document (`https://corpus.local/...`) to its page
 * themselves, so they get URLs as memory holds them; answers read away from the pages (MCP, the
 * export) get the document's page on this server (`PUBLIC_URL/corpus/...`) instead.
 */
export type Audience = { kind: 'page' } | { kind: 'client'; publicUrl: string }
export const PAGE: Audience = { kind: 'page' }

/** When and in which run; the run's id only when it names a run (memory written by hand may hold others). */
export type FirstSeenView = { runId: string | null; at: string }
export type SourceView = {
  url: string
  title: string
  /** The title, or the URL when the source has none. */
  label: string
  publishedDate: string | null
  firstSeen: FirstSeenView
}
/** A fact: a claim with its quote, its sources, when first seen and last confirmed. */
export type PlainFactView = {
  id: string
  text: string
  /** The words of a source that support it; '' for facts stored before quotes were kept. */
  quote: string
  sourceUrls: string[]
  sources: SourceView[]
  firstSeen: FirstSeenView
  lastConfirmed: string
}
/**
 * A fact with what it replaced: the replaced fact's id, how, and that fact (null when it has since
 * left memory, past the fact cap).
 */
export type FactView = PlainFactView & {
  replaced: { id: string; change: FactChange; previous: PlainFactView | null } | null
}
/** A fact a later one replaced: history, with the id of what replaced it, and that fact while memory holds it. */
export type HistoryFactView = PlainFactView & {
  supersededBy: string
  replacedBy: { change: FactChange; text: string; at: string } | null
}
export type TopicSummary = {
  topicId: string
  topic: string
  runCount: number
  factCount: number
  sourceCount: number
  urlsIndexed: number
  lastRunAt: string
  expiresAt: string
}
/** A run's record in memory: what it added, without the queries and questions the next run starts from. */
export type RunRecordView = Pick<
  RunRecord,
  'runId' | 'at' | 'newFacts' | 'confirmedFacts' | 'newSources' | 'urlsRead' | 'summary'
>
/** Facts and sources in memory order (first seen first); the pages show the newest first. */
export type TopicView = {
  summary: TopicSummary
  stats: MemoryStats
  facts: FactView[]
  history: HistoryFactView[]
  sources: SourceView[]
  runs: RunRecordView[]
}
export type DeltaView = {
  runId: string
  at: string
  /** Every fact the run added: the new, updated and contradicted ones together, in memory order. */
  facts: PlainFactView[]
  newFacts: FactView[]
  updated: FactView[]
  contradicted: FactView[]
  /** Facts memory already held that the run found again. */
  confirmed: number
  /** The sources the run first read. */
  sources: SourceView[]
}

export type SearchHitView = { topicId: string; topic: string; fact: FactView; matched: string[]; score: number }

/** How many facts and sources each of two topics holds, and how many they share. */
export type ComparisonSummary = {
  factsA: number
  factsB: number
  sourcesA: number
  sourcesB: number
  sharedFacts: number
  sharedSources: number
}

/** Two topics side by side: the facts and sources they share and those only one of them holds. */
export type ComparisonView = {
  a: TopicSummary
  b: TopicSummary
  summary: ComparisonSummary
  sharedFacts: Array<{ a: FactView; b: FactView; sameText: boolean }>
  sharedSources: SourceView[]
  onlyA: { facts: FactView[]; sources: SourceView[] }
  onlyB: { facts: FactView[]; sources: SourceView[] }
}
