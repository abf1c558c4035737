// The report a complete run returns: its types are inferred from the zod schemas in
// server/vocabulary/report.ts; what is here reads reports stored in an older shape.
import { withLegacyCorpusUse } from '#server/research/search-origin.ts'
import type { Report, StoredReport } from '#server/vocabulary/report.ts'

export type {
  PreviousClaim,
  Report,
  ReportBudget,
  ReportChange,
  ReportDelta,
  ReportFinding,
  ReportNewFinding,
  ReportSource,
} from '#server/vocabulary/report.ts'

/**
 * A report as stored, read in today's shape: reports written before claims had no quotes, no updated
 * or contradicted lists and no integrity counts (every claim they showed was new to them); those
 * written before runs recorded a corpus search did not say so (see withLegacyCorpusUse).
 */
export function upgradeReport(stored: StoredReport): Report {
  return withLegacyCorpusUse(withClaims(stored))
}

function withClaims(stored: StoredReport): Report {
  const delta = stored.delta ?? { baseline: true, since: null, summary: '' }
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
      ? { ...stored.integrity, ownWords: stored.integrity.ownWords ?? 0, offTopic: stored.integrity.offTopic ?? 0 }
      : allShown(newFindings.length),
  }
}

/** The counts of a report whose every claim is shown as it was written. */
export function allShown(count: number): Report['integrity'] {
  return { claims: count, shown: count, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 }
}
