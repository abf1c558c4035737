// The text of a report (server/research/report.ts builds the rest): the summary written in the
// brief's style, led by what changed since memory was saved, and the delta's one-paragraph summary.
// Citations are still in the synthesis's numbering here; the builder renumbers them after.

import type { FrameworkLens, ReportStyle, SourceForSynthesis } from '#server/providers/types.ts'
import type { ReportClaim } from '#server/research/delta.ts'
import { markers, oneLine, stripCitations } from '#server/research/report-citations.ts'
import { RULES_JUDGED } from '#server/research/report-summary.ts'
import { themeGroups } from '#server/research/report-themes.ts'
import type { ReportBudget } from '#server/research/report-types.ts'
import { topicKey } from '#server/text/topic-key.ts'

/** What a framework section says when nothing in the run supports it. */
export const NO_EVIDENCE = "No evidence in this run's sources."

const CHANGE_LABEL = { updated: 'Updated', contradicted: 'Contradicted', new: 'New' } as const
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/

type CleanFinding = { text: string; sourceIds: number[]; memoryHeld?: { text: string; seenAt: string | null } }

/** The brief's choices and the synthesis, its citations already checked against the pages. */
export type SummaryParts = {
  reportStyle: ReportStyle
  framework?: FrameworkLens
  topic?: string
  /** Every source the run read, cited or not. */
  sources: SourceForSynthesis[]
  budget?: ReportBudget
  headline: string
  findings: CleanFinding[]
  /** What changed since memory was saved: new, updated and contradicted claims (none on a baseline). */
  changes: ReportClaim[]
  since: string | null
  sections: Array<{ title: string; body: string }>
  implications: string
  gaps: string[]
  /** What compared the claims with memory (absent: not recorded). */
  judge?: 'model' | 'rules'
}

export function renderSummary(parts: SummaryParts): string {
  let body = leadWithChanges(renderStyle(parts), parts)
  if (parts.gaps.length > 0) body += `\n\n### Open questions\n${parts.gaps.map((gap) => `- ${gap}`).join('\n')}`
  if (parts.budget?.reached) body += `\n\n### Budget\n${budgetNote(parts.budget)}`
  return body
}

/** "This run stopped spending at its budget of 20,000 tokens: it left out the follow-up round." */
function budgetNote(budget: ReportBudget): string {
  const limits = [
    budget.maxTokens !== null && `${budget.maxTokens.toLocaleString('en-US')} tokens`,
    budget.maxCostDollars !== null && `$${budget.maxCostDollars.toFixed(2)}`,
  ].filter(Boolean)
  const list = budget.leftOut.join(', ')
  return `This run stopped spending at its budget of ${limits.join(' and ')}: it left out ${list}, and finished with what it had.`
}

function renderStyle(parts: SummaryParts): string {
  const { headline, findings, implications } = parts
  switch (parts.reportStyle) {
    case 'executive':
      return [
        `## ${headline}`,
        `### Key findings\n${findingList(findings)}`,
        implications && `### Implications\n${implications}`,
      ]
        .filter(Boolean)
        .join('\n\n')
    case 'bullet':
      return [
        `## ${headline}`,
        ...themeGroups(findings, parts.topic).map(({ title, members }) => `### ${title}\n${findingList(members)}`),
      ].join('\n\n')
    case 'memo':
      return [
        [
          '**To:** Brief requester',
          '**From:** Sextant',
          `**Subject:** ${oneLine(parts.topic ?? '') || stripCitations(headline)}`,
        ].join('  \n'),
        `### Background\n${headline}\n\n${backgroundLine(parts.sources.length)}`,
        `### Findings\n${findingList(findings)}`,
        `### Recommendation\n${implications || 'No recommendation: the findings above are all this run can support.'}`,
      ].join('\n\n')
    case 'framework':
      return renderFramework(parts)
  }
}

function renderFramework(parts: SummaryParts): string {
  const { framework, sections, headline } = parts
  if (!framework) {
    // A framework style without a known framework: show what sections the synthesis wrote.
    const written = sections.filter((section) => section.title)
    const blocks =
      written.length > 0
        ? written.map((section) => `### ${section.title}\n${section.body || NO_EVIDENCE}`)
        : [`### Findings\n${findingList(parts.findings)}`]
    return [`## ${headline}`, ...blocks].join('\n\n')
  }
  const byTitle = new Map<string, string>()
  for (const section of sections) {
    const key = topicKey(section.title)
    if (!byTitle.has(key)) byTitle.set(key, section.body)
  }
  const frameworkKeys = new Set(framework.sections.map(topicKey))
  const blocks = framework.sections.map((title) => `### ${title}\n${byTitle.get(topicKey(title)) || NO_EVIDENCE}`)
  // Sections the synthesis named differently are kept after the framework's own, not lost.
  for (const section of sections) {
    if (section.title && section.body && !frameworkKeys.has(topicKey(section.title))) {
      blocks.push(`### ${section.title}\n${section.body}`)
    }
  }
  return [`## ${framework.name}`, headline, ...blocks].join('\n\n')
}

function backgroundLine(sourcesRead: number): string {
  return `This run read ${sourcesRead} new ${sourcesRead === 1 ? 'source' : 'sources'}; those cited are listed with the report.`
}

function findingList(findings: CleanFinding[]): string {
  if (findings.length === 0) return "No findings in this run's sources."
  return findings
    .map((finding) => {
      // A claim the rules could not tell from one memory held: both are shown, for the reader to judge.
      const held = finding.memoryHeld
        ? ` (memory held: "${oneLine(finding.memoryHeld.text)}", seen ${day(finding.memoryHeld.seenAt)})`
        : ''
      return `- ${finding.text}${held} ${markers(finding.sourceIds)}`
    })
    .join('\n')
}

/** The summary opens with what changed: right under its first heading block, before the findings. */
function leadWithChanges(body: string, parts: SummaryParts): string {
  if (parts.changes.length === 0) return body
  const caveat = parts.judge === 'rules' ? `_${RULES_JUDGED}_\n` : ''
  const block = `### What changed since ${day(parts.since)}\n${caveat}${changeList(parts.changes)}`
  const blocks = body.split('\n\n')
  // After the title (and a framework's headline line, or a memo's header), before the rest.
  const at = parts.reportStyle === 'framework' && parts.framework ? 2 : 1
  return [...blocks.slice(0, at), block, ...blocks.slice(at)].join('\n\n')
}

function changeList(changes: ReportClaim[]): string {
  return changes
    .map((claim) => {
      const label = CHANGE_LABEL[claim.class as keyof typeof CHANGE_LABEL]
      const was = claim.previous ? ` (was: "${oneLine(claim.previous.text)}", seen ${day(claim.previous.seenAt)})` : ''
      return `- **${label}:** ${claim.text}${was} ${markers(claim.sourceIds)}`
    })
    .join('\n')
}

function day(iso: string | null): string {
  return iso ? (ISO_DATE.exec(iso)?.[0] ?? iso) : 'the last run'
}

export function renderDeltaSummary(
  baseline: boolean,
  since: string | null,
  findingCount: number,
  changes: ReportClaim[],
  confirmed: number,
  judge?: 'model' | 'rules',
): string {
  if (baseline) {
    const count = findingCount === 1 ? '1 finding' : `${findingCount} findings`
    return `First run on this topic (baseline): ${count} recorded, so later runs report only what changes.`
  }
  const when = day(since)
  const still = confirmed > 0 ? `; ${confirmed === 1 ? '1 claim' : `${confirmed} claims`} confirmed` : ''
  if (changes.length === 0) {
    return findingCount === 0
      ? `Nothing new since ${when}: this run turned up no new sources or findings.`
      : `Nothing new since ${when}: the sources read in this run repeat what memory already holds${still}.`
  }
  const counts = (['new', 'updated', 'contradicted'] as const)
    .map((kind) => [kind, changes.filter((claim) => claim.class === kind).length] as const)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ')
  const caveat = judge === 'rules' ? ` ${RULES_JUDGED}` : ''
  return `Since ${when}: ${counts}${still}.${caveat}\n${changeList(changes)}`
}
