// What Sextant says in a Slack thread or on a pull request: "researching" with a link, the report
// (led by what changed: old claims struck through beside the new; split to the platform's limits,
// citations linked to their sources), a failure, or a notice.
// Slack gets mrkdwn; GitHub gets its markdown, with @mentions defused so a report pings nobody and
// "<" escaped so no raw HTML (an <a href>) gets through. Text from pages, models and mentions is
// sanitised first: the only links in a message are Sextant's own and the run's sources.
import { escapeMrkdwn, markdownToMrkdwn, slackLink } from '#server/notify/slack/mrkdwn.ts'
import { splitText } from '#server/notify/split-text.ts'
import { changeCounts, rulesJudged, summaryWithoutChanges } from '#server/research/report-summary.ts'
import type { Report, ReportChange, ReportSource } from '#server/research/report-types.ts'
import type { RunView } from '#server/runs/contract.ts'
import { CITATION_MARKER, markerNumbers } from '#server/text/markdown/citations.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'
import { timeframePhrase } from '#server/vocabulary/brief.ts'
import { budgetPhrase } from '#server/vocabulary/budget.ts'
import { cadenceOf, describeCadence } from '#server/vocabulary/cadence.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

/** Slack: a section block holds 3,000 characters, and shorter messages read better in a thread. GitHub: 65,536 per comment. */
export const PART_LIMITS: Record<ChatChannel, number> = { slack: 3000, github: 60_000 }

export type MessageContext = { publicUrl: string; recurringIntervalSeconds: number }

type Format = {
  bold: (text: string) => string
  /** Text struck through: a claim memory held that a run updated. */
  strike: (text: string) => string
  italic: (text: string) => string
  bullet: string
  link: (url: string, label: string) => string
  /**
   * Page- or model-written markdown of a report: [n] cites source n, and the sources are all it may
   * link to. `publicUrl`: where a corpus document's page is, for a link to one.
   */
  markdown: (markdown: string, sources: ReportSource[], publicUrl: string) => string
  plain: (text: string) => string
}

const defuseMentions = (text: string) => text.replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, '$1@\u200b')
// GitHub renders raw HTML, links included; "&lt;" shows as "<" (in code too, as "&lt;": a fair price).
const githubText = (text: string) => defuseMentions(text.replaceAll('<', '&lt;'))

const FORMATS: Record<ChatChannel, Format> = {
  slack: {
    bold: (text) => `*${escapeMrkdwn(sanitizeMarkdown(text)).replaceAll('*', '')}*`,
    // A "~" inside would end the strike early; mrkdwn has no escape for it.
    strike: (text) => `~${escapeMrkdwn(sanitizeMarkdown(oneLine(text))).replaceAll('~', '∼')}~`,
    italic: (text) => `_${escapeMrkdwn(sanitizeMarkdown(text)).replaceAll('_', ' ')}_`,
    bullet: '•',
    link: slackLink,
    markdown: (markdown, sources, publicUrl) => markdownToMrkdwn(markdown, sourceUrlsOf(sources), { site: publicUrl }),
    plain: (text) => escapeMrkdwn(sanitizeMarkdown(text)),
  },
  github: {
    bold: (text) => `**${githubText(sanitizeMarkdown(text)).replaceAll('*', '\\*')}**`,
    strike: (text) => `~~${githubText(sanitizeMarkdown(oneLine(text))).replaceAll('~', '\\~')}~~`,
    italic: (text) => `_${githubText(sanitizeMarkdown(text)).replaceAll('_', '\\_')}_`,
    bullet: '-',
    link: (url, label) =>
      `[${githubText(label).replace(/[[\]]/g, '\\$&')}](${url.replaceAll(')', '%29').replaceAll(' ', '%20')})`,
    // GitHub renders markdown itself: the text goes as written, defused, its citations linked (a
    // report read for a message has its corpus sources by their pages already: readStoredReport).
    markdown: (markdown, sources) =>
      githubText(linkCitations(sanitizeMarkdown(markdown, sourceUrlsOf(sources)), sources)),
    plain: (text) => githubText(sanitizeMarkdown(text)),
  },
}

/** The URLs in citation order, as the run page takes them: a report numbers its sources from 1. */
function sourceUrlsOf(sources: ReportSource[]): string[] {
  return sources.map((source) => source.url)
}

/**
 * For GitHub's own renderer: [2] becomes [[2](url)], [1, 3] becomes [[1](u1), [3](u3)]; a number with
 * no source stays as it is.
 */
export function linkCitations(markdown: string, sources: ReportSource[]): string {
  const urls = new Map(sources.map((source) => [source.n, source.url]))
  const urlOf = (n: number) => urls.get(n)
  return markdown.replace(CITATION_MARKER, (marker) => {
    const numbers = markerNumbers(marker)
    if (!numbers.some(urlOf)) return marker
    return `[${numbers.map((n) => (urlOf(n) ? `[${n}](${urlOf(n)})` : n)).join(', ')}]`
  })
}

export function runPageUrl(publicUrl: string, runId: string): string {
  return `${publicUrl}/dashboard/runs/${runId}`
}

function describeBrief(run: RunView): string {
  const { brief } = run
  const framework = brief.frameworkId ? findFramework(brief.frameworkId)?.name : undefined
  return [brief.depth, timeframePhrase(brief.timeframe), `${brief.reportStyle} style`, framework, budgetPhrase(brief)]
    .filter(Boolean)
    .join(', ')
}

export function startedMessage(channel: ChatChannel, run: RunView, context: MessageContext): string[] {
  const f = FORMATS[channel]
  const recurring = run.brief.recurring
    ? ` It runs again ${f.plain(describeCadence(cadenceOf(run.brief, context.recurringIntervalSeconds)))}; each new report is posted here.`
    : ''
  const text =
    `:mag: Researching ${f.bold(run.topic)} (${f.plain(describeBrief(run))}). ` +
    `The report comes here when it is done; ${f.link(runPageUrl(context.publicUrl, run.runId), 'follow it live')}.${recurring}`
  return [text]
}

export function resultMessage(channel: ChatChannel, run: RunView, context: MessageContext): string[] {
  const f = FORMATS[channel]
  const runUrl = runPageUrl(context.publicUrl, run.runId)
  if (run.status === 'failed') {
    const reason = run.error?.message ?? 'it stopped without saying why'
    return [`:warning: Research on ${f.bold(run.topic)} failed: ${f.plain(reason)} (${f.link(runUrl, 'details')})`]
  }
  if (run.status !== 'complete' || !run.report) {
    return [`Research on ${f.bold(run.topic)} was cancelled (${f.link(runUrl, 'details')}).`]
  }
  const { report } = run
  const body = (markdown: string) => f.markdown(markdown, report.sources, context.publicUrl)
  const sections = [f.bold(`Research report: ${run.topic}`)]
  // Before any finding: sources of the local corpus (invented, for the sample) are not the web.
  if (report.notice) sections.push(`:warning: ${f.plain(report.notice)}`)
  // A later run leads with what changed, shown once: as the delta's lists, not also as the summary's block.
  if (!report.delta.baseline) sections.push(...changeSections(f, report, body))
  sections.push(body(report.delta.baseline ? report.summary : summaryWithoutChanges(report.summary)))
  if (report.sources.length > 0) {
    const list = report.sources.map((source) => {
      const date = source.publishedAt ? ` (${source.publishedAt.slice(0, 10)})` : ''
      return `${source.n}. ${f.link(source.url, source.title || source.url)}${date}`
    })
    sections.push(`${f.bold('Sources')}\n${list.join('\n')}`)
  }
  sections.push(f.link(runUrl, 'Full report on Sextant'))
  return splitText(sections.join('\n\n'), PART_LIMITS[channel])
}

/**
 * "What changed since ...": the counts, then each updated claim as the old one struck through -> the
 * new, each contradicted one with what memory held before, each new one, and how many were confirmed.
 * Without changes, the delta's own summary ("Nothing new since ...").
 */
function changeSections(f: Format, report: Report, body: (markdown: string) => string): string[] {
  const { delta } = report
  const heading = f.bold(`What changed${delta.since ? ` since ${delta.since.slice(0, 10)}` : ''}`)
  if (delta.updated.length + delta.contradicted.length + delta.newFindings.length === 0) {
    return [heading, body(delta.summary)]
  }
  const cite = (sources: number[]) => (sources.length > 0 ? ` ${body(`[${sources.join(', ')}]`)}` : '')
  const seen = (change: ReportChange) => ` (${change.previous.seenAt.slice(0, 10)})`
  const list = (title: string, lines: string[]) =>
    lines.length > 0 ? [`${f.bold(title)}\n${lines.map((line) => `${f.bullet} ${line}`).join('\n')}`] : []
  // Rules alone compared these with memory: said under the counts, as every surface says it.
  const judged = rulesJudged(report)
  const lines = [
    [heading, f.plain(changeCounts(delta)), ...(judged ? [f.italic(judged)] : [])].join('\n'),
    ...list(
      'Updated',
      delta.updated.map(
        (change) => `${f.strike(change.previous.text)}${seen(change)} → ${f.plain(change.text)}${cite(change.sources)}`,
      ),
    ),
    ...list(
      'Contradicted',
      delta.contradicted.map(
        (change) =>
          `Previously: ${f.plain(change.previous.text)}${seen(change)} → now: ${f.plain(change.text)}${cite(change.sources)}`,
      ),
    ),
    ...list(
      'New',
      delta.newFindings.map((finding) => `${f.plain(finding.text)}${cite(finding.sources)}`),
    ),
  ]
  if (delta.confirmed > 0) {
    lines.push(
      f.italic(
        delta.confirmed === 1
          ? '1 claim confirmed: memory already held it.'
          : `${delta.confirmed} claims confirmed: memory already held them.`,
      ),
    )
  }
  return lines
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

export function noticeMessage(channel: ChatChannel, notice: string): string[] {
  return splitText(FORMATS[channel].plain(notice), PART_LIMITS[channel])
}
