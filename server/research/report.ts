// Turns a synthesis into the report a run returns (spec 2.3): citations checked against the sources
// this run read and renumbered from 1, the summary written in the brief's style, and the delta
// against what memory already held.
import type { ClaimClass } from '#server/claims/classify.ts'
import { contentTerms, foldPlural, STOPWORDS } from '#server/claims/terms.ts'
import type { Integrity } from '#server/claims/verify.ts'
import { topicKey } from '#server/memory/topic-key.ts'
import type { FrameworkLens, ReportStyle, SourceForSynthesis, Synthesis } from '#server/providers/types.ts'
import type { PreviousClaim, Report, ReportBudget, ReportDelta, ReportSource } from '#server/research/report-types.ts'
import { CITATION_MARKER } from '#server/text/markdown/citations.ts'
import { wordTokens } from '#server/text/words.ts'

/** A verified claim of this run, classified against memory (see server/claims). */
export type ReportClaim = {
  text: string
  /** The supporting words, as the page writes them. */
  quote: string
  /** Synthesis numbering; every one of these pages holds the quote. */
  sourceIds: number[]
  class: ClaimClass
  /** For updated and contradicted: what memory held. */
  previous?: PreviousClaim
}

import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

export type BuildReportInput = {
  synthesis: Pick<Synthesis, 'headline' | 'sections' | 'implications' | 'gaps'>
  /** Verified and classified, in the synthesis's order. */
  claims: ReportClaim[]
  integrity: Integrity
  /** Numbered as the synthesis cited them. */
  sources: SourceForSynthesis[]
  baseline: boolean
  /** When memory was last saved (ISO), null on a baseline. */
  since: string | null
  reportStyle: ReportStyle
  framework?: FrameworkLens
  /** The brief's topic: the memo's subject, and words too common in the findings to be a theme. */
  topic?: string
  generatedWith: Report['generatedWith']
  usage: Report['usage']
  budget?: ReportBudget
}

/** What a framework section says when nothing in the run supports it. */
export const NO_EVIDENCE = "No evidence in this run's sources."

type CleanFinding = { text: string; sourceIds: number[] }

const CHANGE_LABEL = { updated: 'Updated', contradicted: 'Contradicted', new: 'New' } as const
const QUOTE_SNIPPET_CHARACTERS = 400

/** Fewer findings than this read better as one list than as themes of one or two. */
const MIN_FINDINGS_FOR_THEMES = 5
const MAX_THEMES = 4

// One run of adjacent markers, [1], [1, 2], [1][2], with the space before it.
const CITATION_RUN = new RegExp(`([ \\t]*)((?:${CITATION_MARKER.source})+)`, 'g')
const DIGITS = /\d+/g
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/
// A hyphen inside a word ("air-source"), not a minus sign ("-25") or a dash between spaces.
const COMPOUND_HYPHEN = /(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu

// Words that carry meaning in a sentence but not in a theme: two findings both saying "year" or
// "three" have nothing in common worth naming. Numbers are left out too (see themeTerms).
const THEME_STOPWORDS = new Set(
  (
    'year years month months week weeks day days hour hours time times today three four five six seven eight nine ten ' +
    'hundred hundreds thousand thousands million millions billion billions first second third last next half ' +
    'percent according ago earlier later recent recently soon yesterday tomorrow'
  ).split(' '),
)

export function buildReport(input: BuildReportInput): Report {
  const { synthesis } = input
  const sourcesById = new Map<number, SourceForSynthesis>()
  for (const source of input.sources) if (!sourcesById.has(source.id)) sourcesById.set(source.id, source)
  // A page is citable only where a shown claim's quote is on it: free text (headline, sections,
  // implications, gaps) may cite those pages and no other.
  const supporting = new Set(input.claims.flatMap((claim) => claim.sourceIds).filter((id) => sourcesById.has(id)))
  const cited = (id: number) => (supporting.has(id) ? id : undefined)

  // (a) Citation hygiene, still in the synthesis's numbering.
  const claims = input.claims
    .map((claim) => ({
      ...claim,
      text: oneLine(claim.text),
      sourceIds: unique(claim.sourceIds.filter((id) => cited(id))),
    }))
    .filter((claim) => claim.text && claim.sourceIds.length > 0)
  const headline = rewriteCitations(synthesis.headline, cited).trim() || 'Findings from this run'
  const sections = (synthesis.sections ?? []).map((section) => ({
    title: stripCitations(section.title).trim(),
    body: rewriteCitations(section.body, cited).trim(),
  }))
  const implications = rewriteCitations(synthesis.implications ?? '', cited).trim()
  const gaps = synthesis.gaps.map((gap) => rewriteCitations(gap, cited).trim()).filter(Boolean)

  const since = input.baseline ? null : input.since
  // A changed figure or a reversal first: they are what a person re-running a topic looks for.
  const changes = input.baseline
    ? []
    : (['updated', 'contradicted', 'new'] as const).flatMap((kind) => claims.filter((claim) => claim.class === kind))
  const newOnes = input.baseline ? claims : claims.filter((claim) => claim.class === 'new')
  const confirmed = input.baseline ? 0 : claims.filter((claim) => claim.class === 'confirmed').length
  const summary = renderSummary({ ...input, headline, findings: claims, sections, implications, gaps, changes, since })
  const deltaSummary = renderDeltaSummary(input.baseline, since, claims.length, changes, confirmed)

  // (b) Renumber: sources in order of first citation, the summary's before the delta's.
  const order = unique([
    ...citationNumbers(summary),
    ...citationNumbers(deltaSummary),
    ...[...newOnes, ...changes].flatMap((claim) => claim.sourceIds),
  ])
  const renumbered = new Map(order.map((id, index) => [id, index + 1]))
  const toNew = (id: number) => renumbered.get(id)
  const finding = (claim: (typeof claims)[number]) => ({
    text: sanitizeMarkdown(claim.text),
    quote: claim.quote,
    sources: claim.sourceIds.flatMap((id) => toNew(id) ?? []),
  })
  const change = (claim: (typeof claims)[number]) => {
    const previous = claim.previous as PreviousClaim
    return { ...finding(claim), previous: { ...previous, text: sanitizeMarkdown(previous.text) } }
  }

  // (c) Pages and models (and the topic) write text, never links: a link in a report could only be
  // one a page planted. The sources list carries the links.
  const delta: ReportDelta = {
    baseline: input.baseline,
    since,
    newFindings: newOnes.map(finding),
    updated: claims.filter((claim) => !input.baseline && claim.class === 'updated' && claim.previous).map(change),
    contradicted: claims
      .filter((claim) => !input.baseline && claim.class === 'contradicted' && claim.previous)
      .map(change),
    confirmed,
    summary: sanitizeMarkdown(rewriteCitations(deltaSummary, toNew).trim()),
  }
  // Each page shows the words that support the first claim citing it.
  const quoteOf = new Map<number, string>()
  for (const claim of claims) for (const id of claim.sourceIds) if (!quoteOf.has(id)) quoteOf.set(id, claim.quote)
  const sources: ReportSource[] = order.map((id, index) => {
    const source = sourcesById.get(id) as SourceForSynthesis
    return {
      n: index + 1,
      url: source.url,
      title: source.title,
      publishedAt: source.publishedDate,
      snippet: snippet(quoteOf.get(id) ?? '', QUOTE_SNIPPET_CHARACTERS),
    }
  })
  return {
    summary: sanitizeMarkdown(rewriteCitations(summary, toNew).trim()),
    delta,
    sources,
    integrity: input.integrity,
    generatedWith: input.generatedWith,
    usage: input.usage,
    ...(input.budget ? { budget: input.budget } : {}),
  }
}

/** Every citation number in a text, in order of appearance: [3], [1, 2] and [1][2] forms. */
export function citationNumbers(markdown: string): number[] {
  const numbers: number[] = []
  for (const match of markdown.matchAll(CITATION_RUN)) {
    for (const digits of (match[2] ?? '').match(DIGITS) ?? []) numbers.push(Number(digits))
  }
  return numbers
}

/** A word that can name a theme, folded as contentTerms folds it, and as the text wrote it. */
export type ThemeWord = { term: string; word: string }

/**
 * The words that can name a theme shared by several findings: content words, but not numbers, number
 * and time words, or Latin words of one or two letters ("kw", "uk"). A hyphenated compound of such
 * words ("air-source") is one word. Words in `excluded` (folded terms, such as the topic's), and
 * compounds made only of them, are left out.
 */
export function themeWords(text: string, excluded: ReadonlySet<string> = new Set()): ThemeWord[] {
  const words: ThemeWord[] = []
  for (const token of wordTokens(stripCitations(text).replace(COMPOUND_HYPHEN, '_'))) {
    const parts = token.split('_').filter(Boolean)
    const meaningful = parts.filter(isThemePart)
    if (parts.length > 1 && meaningful.length === parts.length) {
      if (parts.every((part) => excluded.has(foldPlural(part)))) continue
      const term = [...parts.slice(0, -1), foldPlural(parts.at(-1) as string)].join('-')
      words.push({ term, word: parts.join('-') })
      continue
    }
    for (const part of meaningful) {
      if (!excluded.has(foldPlural(part))) words.push({ term: foldPlural(part), word: part })
    }
  }
  return words
}

function isThemePart(token: string): boolean {
  return !STOPWORDS.has(token) && !THEME_STOPWORDS.has(token) && !/\p{N}/u.test(token) && !/^[a-z]{1,2}$/.test(token)
}

/** Maps each cited number through `map`; a marker whose numbers all map to nothing is removed. */
function rewriteCitations(text: string, map: (id: number) => number | undefined): string {
  return text.replace(CITATION_RUN, (_match, space: string, run: string) => {
    const ids = unique((run.match(DIGITS) ?? []).flatMap((digits) => map(Number(digits)) ?? []))
    return ids.length > 0 ? `${space}${markers(ids)}` : ''
  })
}

function stripCitations(text: string): string {
  return rewriteCitations(text, () => undefined)
}

function markers(ids: number[]): string {
  return ids.map((id) => `[${id}]`).join('')
}

type SummaryParts = BuildReportInput & {
  headline: string
  findings: CleanFinding[]
  /** What changed since memory was saved: new, updated and contradicted claims (none on a baseline). */
  changes: ReportClaim[]
  since: string | null
  sections: Array<{ title: string; body: string }>
  implications: string
  gaps: string[]
}

function renderSummary(parts: SummaryParts): string {
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
  return findings.map((finding) => `- ${finding.text} ${markers(finding.sourceIds)}`).join('\n')
}

/**
 * Groups findings under the content word most of them share, greedily, up to four themes; the rest
 * go under "Other findings". A word every finding (or the topic) contains says nothing about any one
 * of them, so it never names a theme.
 */
function themeGroups(
  findings: CleanFinding[],
  topic: string | undefined,
): Array<{ title: string; members: CleanFinding[] }> {
  const single = [{ title: 'Findings', members: findings }]
  if (findings.length < MIN_FINDINGS_FOR_THEMES) return single
  const excluded = new Set(contentTerms(topic ?? ''))
  const termsOf = findings.map((finding) => new Set(themeWords(finding.text, excluded).map(({ term }) => term)))
  const remaining = new Set(findings.keys())
  const groups: Array<{ title: string; members: CleanFinding[] }> = []
  while (groups.length < MAX_THEMES) {
    const holders = new Map<string, number[]>()
    for (const index of remaining) {
      for (const term of termsOf[index] ?? []) {
        holders.set(term, [...(holders.get(term) ?? []), index])
      }
    }
    let best: [string, number[]] | undefined
    for (const entry of holders) {
      const everywhere = termsOf.every((terms) => terms.has(entry[0]))
      if (entry[1].length >= 2 && !everywhere && entry[1].length > (best?.[1].length ?? 0)) best = entry
    }
    if (!best) break
    const [term, members] = best
    groups.push({ title: themeTitle(term, findings[members[0] as number]?.text ?? term), members: [] })
    for (const index of members) {
      remaining.delete(index)
      groups.at(-1)?.members.push(findings[index] as CleanFinding)
    }
  }
  if (groups.length === 0) return single
  if (remaining.size > 0) {
    groups.push({ title: 'Other findings', members: [...remaining].map((index) => findings[index] as CleanFinding) })
  }
  return groups
}

/** The theme word as a finding wrote it ("Batteries", not the folded "battery"), capitalized. */
function themeTitle(term: string, text: string): string {
  const surface = themeWords(text).find((word) => word.term === term)?.word ?? term
  return surface.charAt(0).toUpperCase() + surface.slice(1)
}

/** The summary opens with what changed: right under its first heading block, before the findings. */
function leadWithChanges(body: string, parts: SummaryParts): string {
  if (parts.changes.length === 0) return body
  const block = `### What changed since ${day(parts.since)}\n${changeList(parts.changes)}`
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

function renderDeltaSummary(
  baseline: boolean,
  since: string | null,
  findingCount: number,
  changes: ReportClaim[],
  confirmed: number,
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
  return `Since ${when}: ${counts}${still}.\n${changeList(changes)}`
}

function snippet(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= limit) return flat
  const cut = flat.slice(0, limit)
  const lastSpace = cut.lastIndexOf(' ')
  // Text without spaces (Chinese, Japanese) is cut at the character limit instead.
  return `${lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut}…`
}

function oneLine(text: string): string {
  return stripCitations(text).replace(/\s+/g, ' ').trim()
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}
