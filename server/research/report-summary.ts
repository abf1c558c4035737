// A report's summary opens with a "### What changed since <date>" block (server/research/report-render.ts).
// Surfaces that show the delta's structured lists in its place (the run page, Slack and GitHub)
// take the block out of the summary, so what changed is shown once, and count the changes alike.
import type { Report, ReportDelta } from '#server/research/report-types.ts'

const CHANGES_HEADING = /^#{2,3}[ \t]+What changed since\b/

/** The summary without its what-changed block; a summary without one (a baseline, an old report) is unchanged. */
export function summaryWithoutChanges(summary: string): string {
  return summary
    .split('\n\n')
    .filter((block) => !CHANGES_HEADING.test(block))
    .join('\n\n')
}

/**
 * Said with what changed when rules alone compared the run's claims with memory: they read figures,
 * dates and stances, and a change told in other words escapes them (the quality bench's held-out news).
 */
export const RULES_JUDGED =
  'Compared with memory by rules, without a language model: a change told in other words can be listed as new.'

/** RULES_JUDGED when the report shows changes that rules alone compared with memory; else undefined. */
export function rulesJudged(report: Pick<Report, 'delta' | 'generatedWith'>): string | undefined {
  const { delta } = report
  const changed = delta.updated.length + delta.contradicted.length + delta.newFindings.length
  return !delta.baseline && changed > 0 && report.generatedWith.judge === 'rules' ? RULES_JUDGED : undefined
}

/** ["1 updated", "2 new"]: each kind that has any, in the order given. */
export function countPhrases(counts: Array<[count: number, kind: string]>): string[] {
  return counts.filter(([count]) => count > 0).map(([count, kind]) => `${count} ${kind}`)
}

/** "3 claims changed: 1 updated, 1 contradicted and 1 new; 2 confirmed." */
export function changeCounts(
  delta: Pick<ReportDelta, 'updated' | 'contradicted' | 'newFindings' | 'confirmed'>,
): string {
  const parts = countPhrases([
    [delta.updated.length, 'updated'],
    [delta.contradicted.length, 'contradicted'],
    [delta.newFindings.length, 'new'],
  ])
  const total = delta.updated.length + delta.contradicted.length + delta.newFindings.length
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'none')
  const confirmed = delta.confirmed > 0 ? `; ${delta.confirmed} confirmed` : ''
  return `${total === 1 ? '1 claim' : `${total} claims`} changed: ${list}${confirmed}.`
}
