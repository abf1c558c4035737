// What Sextant remembers about one topic of one account. All of it is stored encrypted; only the
// counts (runCount, urlsIndexed, factsStored) and times sit in clear columns.

/** When and in which run something was first learned. */
export type FirstSeen = { runId: string; at: string }

export type Fact = {
  /** Stable id: a hash of the fact's normalized text, so the same fact from two runs is one fact. */
  id: string
  text: string
  /** Canonical URLs of the sources that support it. */
  sourceUrls: string[]
  firstSeen: FirstSeen
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
  newSources: number
  urlsRead: number
  summary?: string
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
}

/** What one run adds to a topic's memory. URLs may be raw: merging canonicalizes them. */
export type MemoryContribution = {
  runId: string
  at: Date
  facts: Array<{ text: string; sourceUrls: string[] }>
  sources: Array<{ url: string; title: string; publishedDate: string | null }>
  urlsRead: string[]
  summary?: string
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
export type MemoryStats = { runCount: number; urlsIndexed: number; factsStored: number; lastRunAt: string }

export const LEDGER_CAP = 500
export const RUN_HISTORY_CAP = 20
export const MEMORY_TTL_DAYS = 30
