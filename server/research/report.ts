// Turns a synthesis into the report a run returns (spec 2.3): citations checked against the sources
// this run read and renumbered from 1, the summary written in the brief's style, and the delta
// against what memory already held. The summary's text is written in report-render.ts.
import type { Integrity } from '#server/claims/verify.ts'
import type { FrameworkLens, ReportStyle, SourceForSynthesis, Synthesis } from '#server/providers/types.ts'
import type { ReportClaim } from '#server/research/delta.ts'
import { citationNumbers, oneLine, rewriteCitations, stripCitations } from '#server/research/report-citations.ts'
import { renderDeltaSummary, renderSummary } from '#server/research/report-render.ts'
import type { PreviousClaim, Report, ReportBudget, ReportDelta, ReportSource } from '#server/research/report-types.ts'
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

const QUOTE_SNIPPET_CHARACTERS = 400

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
  const headline =
    rewriteCitations(runHeadline(synthesis.headline, claims.length, input.integrity), cited).trim() ||
    'Findings from this run'
  // The writer's prose says what its claims say: with none of them shown, nothing shown backs it.
  const written: Pick<Synthesis, 'sections' | 'implications'> = noneShown(claims.length, input.integrity)
    ? {}
    : synthesis
  const sections = (written.sections ?? []).map((section) => ({
    title: stripCitations(section.title).trim(),
    body: rewriteCitations(section.body, cited).trim(),
  }))
  const implications = rewriteCitations(written.implications ?? '', cited).trim()
  const gaps = synthesis.gaps.map((gap) => rewriteCitations(gap, cited).trim()).filter(Boolean)

  const since = input.baseline ? null : input.since
  // A changed figure or a reversal first: they are what a person re-running a topic looks for.
  const changes = input.baseline
    ? []
    : (['updated', 'contradicted', 'new'] as const).flatMap((kind) => claims.filter((claim) => claim.class === kind))
  const newOnes = input.baseline ? claims : claims.filter((claim) => claim.class === 'new')
  const confirmed = input.baseline ? 0 : claims.filter((claim) => claim.class === 'confirmed').length
  const judge = input.generatedWith.judge
  const summary = renderSummary({
    ...input,
    headline,
    findings: claims,
    sections,
    implications,
    gaps,
    changes,
    since,
    ...(judge ? { judge } : {}),
  })
  const deltaSummary = renderDeltaSummary(input.baseline, since, claims.length, changes, confirmed, judge)

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
    newFindings: newOnes.map((claim) =>
      claim.memoryHeld && !input.baseline
        ? { ...finding(claim), memoryHeld: { ...claim.memoryHeld, text: sanitizeMarkdown(claim.memoryHeld.text) } }
        : finding(claim),
    ),
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

function snippet(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= limit) return flat
  const cut = flat.slice(0, limit)
  const lastSpace = cut.lastIndexOf(' ')
  // Text without spaces (Chinese, Japanese) is cut at the character limit instead.
  return `${lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut}…`
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)]
}

/**
 * A run's headline, in its report and in memory's record of the run: the writer's, unless the check
 * showed none of the claims it wrote, when the headline would say what nothing shown supports.
 */
export function runHeadline(written: string, shown: number, integrity: Integrity): string {
  return noneShown(shown, integrity) ? nothingShown(integrity) : written
}

/** The check showed none of the claims the writer made. */
function noneShown(shown: number, integrity: Integrity): boolean {
  return shown === 0 && integrity.claims > 0
}

/** The headline of a report whose every claim the check dropped, and why. */
function nothingShown({ claims, offTopic, droppedUnsupported }: Integrity): string {
  if (claims === 1) {
    const why = offTopic
      ? ': it cited only pages about something else'
      : droppedUnsupported
        ? ': the pages it cited do not support it'
        : ''
    return `This run's one claim could not be shown${why}`
  }
  const why = [
    offTopic > 0 ? `${offTopic} cited only pages about something else` : '',
    droppedUnsupported > 0
      ? `${droppedUnsupported} ${droppedUnsupported === 1 ? 'was' : 'were'} not supported by the pages cited`
      : '',
  ].filter(Boolean)
  return `None of this run's ${claims} claims could be shown${why.length > 0 ? `: ${why.join(', ')}` : ''}`
}
