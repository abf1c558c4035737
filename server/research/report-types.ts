// The report a complete run returns (spec 2.3: summary, delta, sources; plus generatedWith, usage).
import type { CorpusKind } from '#server/providers/types.ts'
import { withLegacyCorpusUse } from '#server/research/search-origin.ts'

export type ReportSource = {
  n: number
  url: string
  title: string
  publishedAt: string | null
  /** The words of this page that support the first claim citing it. */
  snippet: string
  /** From the local corpus, not the web: `sample` for an invented sample article. Absent: a web page. */
  corpus?: CorpusKind
}

/** A claim of the report: what it says, the words of the cited pages that support it, the pages. */
export type ReportFinding = { text: string; quote: string; sources: number[] }

/** What memory held before a claim updated or contradicted it. */
export type PreviousClaim = { text: string; seenAt: string; urls: string[] }

export type ReportChange = ReportFinding & { previous: PreviousClaim }

export type ReportDelta = {
  /** True on the first run of a topic (or after memory expired): everything is new. */
  baseline: boolean
  /** When memory was last saved before this run (ISO), or null on a baseline. */
  since: string | null
  /** Claims memory held nothing about (every claim, on a baseline). */
  newFindings: ReportFinding[]
  /** Same subject as a claim memory held, with another figure or date. */
  updated: ReportChange[]
  /** The opposite of a claim memory held. */
  contradicted: ReportChange[]
  /** Claims memory already held: not reported again. */
  confirmed: number
  /** Markdown. Says plainly when nothing is new. */
  summary: string
}

export type Report = {
  /** Markdown in the requested style, citations as [n] pointing into `sources`. */
  summary: string
  delta: ReportDelta
  /** Only sources read in this run, numbered as the citations use them. */
  sources: ReportSource[]
  /** Claims the synthesis made, how many are shown, and how many were dropped for a quote on no page. */
  integrity: { claims: number; shown: number; droppedUnsupported: number; recited: number; ownWords: number }
  generatedWith: {
    synthesis: string
    synthesisKind: 'model' | 'extractive'
    /** What was searched, in words: for the local corpus, what it is and that it is not the web. */
    search: string
    plan: 'model' | 'fallback'
    /** Set when the run searched the local corpus, not the web: `sample` when it found invented sample articles. */
    corpus?: CorpusKind
    /** The web could not be reached (an offline machine), so the local corpus answered instead. */
    offlineFallback?: boolean
  }
  /** Said first wherever the report is shown: its sources are not from the web. Set when read (viewRun). */
  notice?: string
  usage: {
    inputTokens: number
    outputTokens: number
    searchCalls: number
    costDollars: number | null
    /** Characters of page text the model was given, of those the searches returned (absent before passages). */
    charactersRead?: number
    charactersAvailable?: number
  }
  /** Present when the run had a budget (the brief's or RUN_MAX_TOKENS): what it allowed, and left out. */
  budget?: ReportBudget
}

export type ReportBudget = {
  maxTokens: number | null
  maxCostDollars: number | null
  /** The budget stopped some of the work: `leftOut` says what, in words. */
  reached: boolean
  leftOut: string[]
}

/**
 * A report as stored, read in today's shape: reports written before claims had no quotes, no updated
 * or contradicted lists and no integrity counts (every claim they showed was new to them); those
 * written before runs recorded a corpus search did not say so (see withLegacyCorpusUse).
 */
export function upgradeReport(stored: Report): Report {
  return withLegacyCorpusUse(withClaims(stored))
}

function withClaims(stored: Report): Report {
  const delta = (stored.delta ?? { baseline: true, since: null, summary: '' }) as Partial<ReportDelta> &
    Pick<ReportDelta, 'baseline' | 'since' | 'summary'>
  const newFindings = (delta.newFindings ?? []).map((finding) => ({ ...finding, quote: finding.quote ?? '' }))
  return {
    ...stored,
    delta: {
      ...delta,
      newFindings,
      updated: delta.updated ?? [],
      contradicted: delta.contradicted ?? [],
      confirmed: delta.confirmed ?? 0,
    },
    integrity: stored.integrity
      ? { ...stored.integrity, ownWords: stored.integrity.ownWords ?? 0 }
      : {
          claims: newFindings.length,
          shown: newFindings.length,
          droppedUnsupported: 0,
          recited: 0,
          ownWords: 0,
        },
  }
}
