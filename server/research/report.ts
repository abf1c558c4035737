// Turns a synthesis into the report a run returns (spec 2.3): citations checked against the sources
// this run read and renumbered from 1, the summary written in the brief's style, and the delta
// against what memory already held.
import { wordTokens } from '#server/memory/search.ts'
import { topicKey } from '#server/memory/topic-key.ts'
import type { FrameworkLens, ReportStyle, SourceForSynthesis, Synthesis } from '#server/providers/types.ts'
import type { Report, ReportDelta, ReportSource } from '#server/research/report-types.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

export type BuildReportInput = {
  synthesis: Synthesis
  /** Numbered as the synthesis cited them. */
  sources: SourceForSynthesis[]
  /** Memory's facts before this run. */
  knownFacts: string[]
  baseline: boolean
  /** When memory was last saved (ISO), null on a baseline. */
  since: string | null
  reportStyle: ReportStyle
  framework?: FrameworkLens
  /** The brief's topic: the memo's subject, and words too common in the findings to be a theme. */
  topic?: string
  generatedWith: Report['generatedWith']
  usage: Report['usage']
}

/** What a framework section says when nothing in the run supports it. */
export const NO_EVIDENCE = "No evidence in this run's sources."

/** What makes two findings "the same" for the delta and for the extractive synthesizer's dedupe. */
export type FindingSignature = { normalized: string; terms: ReadonlySet<string> }

type CleanFinding = { text: string; sourceIds: number[] }

/** Two findings sharing this share of their content words say the same thing in other words. */
const SAME_FINDING_JACCARD = 0.7
const SNIPPET_CHARACTERS = 240
/** Fewer findings than this read better as one list than as themes of one or two. */
const MIN_FINDINGS_FOR_THEMES = 5
const MAX_THEMES = 4

// One run of adjacent markers: [1], [1, 2], [1][2]. A bracketed number followed by "(" is a
// markdown link's text ("[2024](https://...)"), not a citation.
const CITATION_RUN = /([ \t]*)((?:\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\](?!\())+)/g
const DIGITS = /\d+/g
const TRAILING_PUNCTUATION = /[\s\p{P}]+$/u
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/
// A hyphen inside a word ("air-source"), not a minus sign ("-25") or a dash between spaces.
const COMPOUND_HYPHEN = /(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu

// Words too common to say what a sentence is about: English function words. English only: other
// languages keep every word, which costs precision there but never drops a meaningful word.
const STOPWORDS = new Set(
  (
    'a about above across after again against all along also although am among an and any are around as at be ' +
    'because been before being below between both but by can could did do does down during each either even ' +
    'ever every few for from further had has have he her here hers him his how however i if in into is it its ' +
    'just may me might more most much must my near neither new no nor not now of off often on once one only ' +
    'onto or other our ours out over own per rather said same says she should since so some still such than ' +
    'that the their theirs them then there these they this those though through thus to too toward towards two ' +
    'under unless until up upon us very via was we were what when where whether which while who whom whose why ' +
    'will with within without would yet you your'
  ).split(' '),
)

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
  const cited = (id: number) => (sourcesById.has(id) ? id : undefined)

  // (a) Citation hygiene, still in the synthesis's numbering.
  const findings = cleanFindings(synthesis.findings, cited)
  const headline = rewriteCitations(synthesis.headline, cited).trim() || 'Findings from this run'
  const sections = (synthesis.sections ?? []).map((section) => ({
    title: stripCitations(section.title).trim(),
    body: rewriteCitations(section.body, cited).trim(),
  }))
  const implications = rewriteCitations(synthesis.implications ?? '', cited).trim()
  const gaps = synthesis.gaps.map((gap) => rewriteCitations(gap, cited).trim()).filter(Boolean)

  const known = input.knownFacts.map(findingSignature)
  const newFindings = input.baseline
    ? findings
    : findings.filter((finding) => !known.some((fact) => sameFinding(findingSignature(finding.text), fact)))

  const summary = renderSummary({ ...input, headline, findings, sections, implications, gaps })
  const since = input.baseline ? null : input.since
  const deltaSummary = renderDeltaSummary(input.baseline, since, findings.length, newFindings)

  // (b) Renumber: sources in order of first citation, the summary's before the delta's.
  const order = unique([
    ...citationNumbers(summary),
    ...citationNumbers(deltaSummary),
    ...newFindings.flatMap((finding) => finding.sourceIds),
  ])
  const renumbered = new Map(order.map((id, index) => [id, index + 1]))
  const toNew = (id: number) => renumbered.get(id)

  // (c) Pages and models (and the topic) write text, never links: a link in a report could only be
  // one a page planted. The sources list carries the links.
  const delta: ReportDelta = {
    baseline: input.baseline,
    since,
    newFindings: newFindings.map((finding) => ({
      text: sanitizeMarkdown(finding.text),
      sources: finding.sourceIds.flatMap((id) => toNew(id) ?? []),
    })),
    summary: sanitizeMarkdown(rewriteCitations(deltaSummary, toNew).trim()),
  }
  const sources: ReportSource[] = order.map((id, index) => {
    const source = sourcesById.get(id) as SourceForSynthesis
    return {
      n: index + 1,
      url: source.url,
      title: source.title,
      publishedAt: source.publishedDate,
      snippet: snippet(source.text),
    }
  })
  return {
    summary: sanitizeMarkdown(rewriteCitations(summary, toNew).trim()),
    delta,
    sources,
    generatedWith: input.generatedWith,
    usage: input.usage,
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

export function findingSignature(text: string): FindingSignature {
  return {
    normalized: topicKey(stripCitations(text)).replace(TRAILING_PUNCTUATION, ''),
    terms: new Set(contentTerms(text)),
  }
}

/** Same normalized text, or content-word Jaccard >= 0.7. */
export function sameFinding(x: FindingSignature, y: FindingSignature): boolean {
  if (x.normalized === y.normalized) return true
  if (x.terms.size === 0 || y.terms.size === 0) return false
  let shared = 0
  for (const term of x.terms) if (y.terms.has(term)) shared += 1
  return shared / (x.terms.size + y.terms.size - shared) >= SAME_FINDING_JACCARD
}

/**
 * The words that carry a text's meaning, in order: word tokens without English stopwords or lone
 * Latin letters, with a light plural fold so "batteries" meets "battery" and "costs" meets "cost".
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = []
  for (const token of wordTokens(stripCitations(text))) {
    if (STOPWORDS.has(token) || /^[a-z]$/.test(token)) continue
    terms.push(foldPlural(token))
  }
  return terms
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

function foldPlural(token: string): string {
  if (!/^[a-z]{4,}$/.test(token)) return token
  if (token.endsWith('ies')) return `${token.slice(0, -3)}y`
  if (token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1)
  return token
}

function cleanFindings(findings: Synthesis['findings'], cited: (id: number) => number | undefined): CleanFinding[] {
  const clean: CleanFinding[] = []
  for (const finding of findings) {
    // Markers inside a finding's text count as its citations; the text itself is shown without them
    // because the report appends a finding's citations once, at its end.
    const inline = citationNumbers(finding.text)
    const sourceIds = unique(
      [...finding.sourceIds, ...inline].filter((id) => Number.isInteger(id) && cited(id) !== undefined),
    )
    const text = stripCitations(finding.text).replace(/\s+/g, ' ').trim()
    if (sourceIds.length > 0 && text) clean.push({ text, sourceIds })
  }
  return clean
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
  sections: Array<{ title: string; body: string }>
  implications: string
  gaps: string[]
}

function renderSummary(parts: SummaryParts): string {
  const body = renderStyle(parts)
  if (parts.gaps.length === 0) return body
  return `${body}\n\n### Open questions\n${parts.gaps.map((gap) => `- ${gap}`).join('\n')}`
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

function renderDeltaSummary(
  baseline: boolean,
  since: string | null,
  findingCount: number,
  newFindings: CleanFinding[],
): string {
  if (baseline) {
    const count = findingCount === 1 ? '1 finding' : `${findingCount} findings`
    return `First run on this topic (baseline): ${count} recorded, so later runs report only what changes.`
  }
  const when = since ? (ISO_DATE.exec(since)?.[0] ?? since) : 'the last run'
  if (newFindings.length === 0) {
    return findingCount === 0
      ? `Nothing new since ${when}: this run turned up no new sources or findings.`
      : `Nothing new since ${when}: the sources read in this run repeat what memory already holds.`
  }
  const count = newFindings.length === 1 ? '1 new finding' : `${newFindings.length} new findings`
  return `${count} since ${when}:\n${findingList(newFindings)}`
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= SNIPPET_CHARACTERS) return flat
  const cut = flat.slice(0, SNIPPET_CHARACTERS)
  const lastSpace = cut.lastIndexOf(' ')
  // Text without spaces (Chinese, Japanese) is cut at the character limit instead.
  return `${lastSpace > SNIPPET_CHARACTERS / 2 ? cut.slice(0, lastSpace) : cut}…`
}

function oneLine(text: string): string {
  return stripCitations(text).replace(/\s+/g, ' ').trim()
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}
