// What Sextant remembers about one topic of one account. All of it is stored encrypted; only the
// counts (runCount, urlsIndexed, factsStored) and times sit in clear columns.
import type { Statements } from '#server/claims/figures.ts'
import type { Polarity } from '#server/claims/subject.ts'

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
  /** The edition of the rules that read statements, subject and polarity (server/memory/facts.ts). */
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
  /** Canonical URL (see canonical-url.ts). */
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

/** The memory check of spec 2.4. */
export type { MemoryStats } from '#server/contracts/memory.ts'

export const LEDGER_CAP = 500
/** Facts kept per topic; past it, the longest unconfirmed go first. */
export const FACT_CAP = 2000
export const RUN_HISTORY_CAP = 20
/** Queries and open questions kept per run record. */
export const RUN_THREAD_CAP = 12
export const MEMORY_TTL_DAYS = 30
