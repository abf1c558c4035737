// What a digest says: the topic and what changed in the subject; the run's delta (new claims, updated
// ones with the old claim beside the new, contradicted ones), each with its quote and source links;
// a link to the run page and one to unsubscribe. Plain text, and HTML in which everything from pages
// and models is escaped text and the only links are Sextant's own and the run's http(s) sources.
import type { Email } from '#server/notify/email/mailer.ts'
import { countPhrases, rulesJudged } from '#server/research/report-summary.ts'
import type { Report, ReportChange, ReportFinding, ReportNewFinding } from '#server/research/report-types.ts'
import type { RunView } from '#server/runs/contract.ts'
import { stripBidiControls } from '#server/text/bidi.ts'

export type DigestLinks = { runUrl: string; unsubscribeUrl: string }

type Item = { text: string; quote: string; previous?: string; held?: string; urls: string[] }
type Section = { heading: string; items: Item[] }

/** Without bidi controls and other control characters (a page's text may hold any). */
const clean = (text: string) =>
  [...stripBidiControls(text)]
    .filter((char) => char >= ' ' || char === '\n' || char === '\t')
    .join('')
    .trim()
const oneLine = (text: string) => clean(text).replace(/\s+/g, ' ')

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

function isWebUrl(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol)
}

function sectionsOf(report: Report): Section[] {
  const urlsOf = (finding: ReportFinding) =>
    finding.sources
      .map((n) => report.sources.find((source) => source.n === n)?.url)
      .filter((url): url is string => url !== undefined && isWebUrl(url))
  const item = (finding: ReportFinding): Item => ({ text: finding.text, quote: finding.quote, urls: urlsOf(finding) })
  const change = (finding: ReportChange): Item => ({ ...item(finding), previous: finding.previous.text })
  const fresh = (finding: ReportNewFinding): Item =>
    finding.memoryHeld ? { ...item(finding), held: finding.memoryHeld.text } : item(finding)
  return [
    { heading: 'New', items: report.delta.newFindings.map(fresh) },
    { heading: 'Updated', items: report.delta.updated.map(change) },
    { heading: 'Contradicted', items: report.delta.contradicted.map(change) },
  ].filter((section) => section.items.length > 0)
}

/** "Sodium-ion batteries: 1 new, 1 updated, 1 contradicted". */
export function digestSubject(topic: string, report: Report): string {
  const { delta } = report
  const counts = countPhrases([
    [delta.newFindings.length, 'new'],
    [delta.updated.length, 'updated'],
    [delta.contradicted.length, 'contradicted'],
  ])
  return `${oneLine(topic).slice(0, 150)}: ${counts.length > 0 ? counts.join(', ') : 'nothing new'}`
}

export function digestEmail(run: RunView, to: string, links: DigestLinks): Email {
  const report = run.report
  if (!report) throw new Error(`run ${run.runId} has no report to send`)
  const topic = oneLine(run.brief.topic)
  const sections = sectionsOf(report)
  const body: DigestBody = {
    topic,
    sections,
    confirmed: report.delta.confirmed,
    notice: report.notice,
    caveat: rulesJudged(report),
  }
  return {
    to,
    subject: digestSubject(run.brief.topic, report),
    text: digestText(body, links),
    html: digestHtml(body, links),
    headers: {
      'List-Unsubscribe': `<${links.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}

/** What a run that changed nothing says, as the feed does, instead of an empty email. */
function nothingChanged(confirmed: number): string {
  const repeated =
    confirmed > 0
      ? ` ${confirmed} ${confirmed === 1 ? 'claim was' : 'claims were'} confirmed: memory already held ${confirmed === 1 ? 'it' : 'them'}.`
      : ''
  return `Nothing new, updated or contradicted since the last run.${repeated}`
}

/** What both renderings say: the topic, the delta's sections, what was confirmed, where sources came from. */
type DigestBody = {
  topic: string
  sections: Section[]
  confirmed: number
  notice: string | undefined
  /** Said under the changes when rules alone compared them with memory. */
  caveat: string | undefined
}

function digestText({ topic, sections, confirmed, notice, caveat }: DigestBody, links: DigestLinks): string {
  const lines = [`What changed in "${topic}"`, '']
  // Where the sources came from when they are not the web (the invented sample, a user's documents).
  if (notice) lines.push(oneLine(notice), '')
  if (sections.length === 0) lines.push(nothingChanged(confirmed), '')
  for (const section of sections) {
    lines.push(`${section.heading}:`)
    for (const item of section.items) {
      lines.push(item.previous ? `- ${oneLine(item.previous)} -> ${oneLine(item.text)}` : `- ${oneLine(item.text)}`)
      if (item.held) lines.push(`  (memory held: ${oneLine(item.held)})`)
      if (item.quote) lines.push(`  "${oneLine(item.quote)}"`)
      for (const url of item.urls) lines.push(`  ${url}`)
    }
    lines.push('')
  }
  if (caveat) lines.push(caveat, '')
  lines.push(`The full report: ${links.runUrl}`, '', `Stop these emails for this topic: ${links.unsubscribeUrl}`)
  return lines.join('\n')
}

function digestHtml({ topic, sections, confirmed, notice, caveat }: DigestBody, links: DigestLinks): string {
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`
  const body = sections.map((section) => {
    const items = section.items.map((item) => {
      const claim = item.previous
        ? `<del>${escapeHtml(oneLine(item.previous))}</del> &rarr; ${escapeHtml(oneLine(item.text))}`
        : escapeHtml(oneLine(item.text))
      const held = item.held ? `<div>Memory held: ${escapeHtml(oneLine(item.held))}</div>` : ''
      const quote = item.quote ? `<blockquote>${escapeHtml(oneLine(item.quote))}</blockquote>` : ''
      const sources = item.urls.length > 0 ? `<div>${item.urls.map((url) => link(url, url)).join('<br>')}</div>` : ''
      return `<li>${claim}${held}${quote}${sources}</li>`
    })
    return `<h2>${escapeHtml(section.heading)}</h2><ul>${items.join('')}</ul>`
  })
  return [
    '<!doctype html><html><body>',
    `<h1>What changed in &ldquo;${escapeHtml(topic)}&rdquo;</h1>`,
    ...(notice ? [`<p><strong>${escapeHtml(oneLine(notice))}</strong></p>`] : []),
    ...(sections.length === 0 ? [`<p>${escapeHtml(nothingChanged(confirmed))}</p>`] : body),
    ...(caveat ? [`<p><em>${escapeHtml(caveat)}</em></p>`] : []),
    `<p>${link(links.runUrl, 'The full report on Sextant')}</p>`,
    `<p style="color:#666;font-size:small">${link(links.unsubscribeUrl, 'Stop these emails for this topic')}</p>`,
    '</body></html>',
  ].join('\n')
}
