// A feed as Atom XML (RFC 4287), made with the `feed` package. Its entry title and content are
// `type="html"` in CDATA sections, and the package splits only the first "]]>" of a CDATA section:
// text with a second one would end the section and put markup into the XML. So every text we put in
// is HTML-escaped first (no "<" or ">" survives, so no "]]>" either), and characters XML 1.0 cannot
// hold at all (control characters, lone surrogates) are removed from every string. The feed's own
// title and subtitle are XML text, which the package's writer un-escapes once ("&amp;" -> "&") before
// escaping: an "&" goes through it as U+FFFF (no XML text can hold that one) and is put back after.
import { Feed } from 'feed'
import type { FeedContent, FeedEntry } from '#server/notify/feeds/feeds.ts'
import { rulesJudged } from '#server/research/report-summary.ts'
import type { ReportChange, ReportFinding, ReportNewFinding, ReportSource } from '#server/research/report-types.ts'

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** The text, without the characters an XML document cannot contain. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '')
}

const AMPERSAND = '\uFFFF'

/** Text for an XML text element the package writes: see the top of the file for the ampersands. */
function textElement(text: string): string {
  return xmlText(text).replaceAll('&', AMPERSAND)
}

/** The text as HTML text or attribute value. */
export function escapeHtml(text: string): string {
  return xmlText(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

export type AtomOptions = {
  publicUrl: string
  /** The feed's own address (its token included: a reader subscribes to it). */
  selfUrl: string
}

export function renderAtom(content: FeedContent, options: AtomOptions): string {
  const kind = content.seriesId ? 'recurring brief' : 'topic'
  const newest = content.entries[0]?.finishedAt ?? content.createdAt
  const feed = new Feed({
    id: `urn:uuid:${content.id}`,
    title: textElement(`Sextant: ${content.topic}`),
    description: textElement(`What changed in the ${kind} “${content.topic}”, run by run.`),
    link: new URL(
      content.topicId ? `/dashboard/topics/${content.topicId}` : '/dashboard/series',
      options.publicUrl,
    ).toString(),
    feed: options.selfUrl,
    updated: newest,
    copyright: '',
    generator: 'Sextant',
    // RFC 4287: a feed names an author unless every entry does.
    author: { name: 'Sextant' },
  })
  for (const entry of content.entries) feed.addItem(entryItem(content.topic, entry, options.publicUrl))
  return feed.atom1().replaceAll(AMPERSAND, '&amp;')
}

function entryItem(topic: string, entry: FeedEntry, publicUrl: string) {
  const { delta } = entry.report
  const counts = [
    `${delta.newFindings.length} new`,
    `${delta.updated.length} updated`,
    `${delta.contradicted.length} contradicted`,
  ].join(', ')
  return {
    // A run is its entry: the same id however often the feed is read.
    id: `urn:uuid:${entry.runId}`,
    title: escapeHtml(`${topic}: ${counts}`),
    link: new URL(`/dashboard/runs/${entry.runId}`, publicUrl).toString(),
    date: entry.finishedAt,
    published: entry.finishedAt,
    content: entryHtml(entry),
  }
}

/** The delta: what is new, what was updated (old -> new), what was contradicted, each with its sources. */
function entryHtml(entry: FeedEntry): string {
  const { delta, sources, notice } = entry.report
  const parts: string[] = []
  // Where its sources came from when they are not the web (the invented sample, a user's documents).
  if (notice) parts.push(`<p><strong>${escapeHtml(notice)}</strong></p>`)
  if (delta.baseline) parts.push('<p>The first run on this topic: everything it found is new.</p>')
  if (delta.newFindings.length > 0) {
    parts.push('<h3>New</h3>', list(delta.newFindings.map((finding) => findingHtml(finding, sources))))
  }
  if (delta.updated.length > 0) {
    parts.push('<h3>Updated</h3>', list(delta.updated.map((change) => changeHtml(change, sources, 'was'))))
  }
  if (delta.contradicted.length > 0) {
    parts.push(
      '<h3>Contradicted</h3>',
      list(delta.contradicted.map((change) => changeHtml(change, sources, 'memory held'))),
    )
  }
  const changed = delta.newFindings.length + delta.updated.length + delta.contradicted.length
  if (changed === 0 && !delta.baseline) parts.push('<p>Nothing new, updated or contradicted.</p>')
  const judged = rulesJudged(entry.report)
  if (judged) parts.push(`<p><em>${escapeHtml(judged)}</em></p>`)
  return parts.join('\n')
}

function list(items: string[]): string {
  return `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`
}

function findingHtml(finding: ReportFinding | ReportNewFinding, sources: ReportSource[]): string {
  const quote = finding.quote ? ` <q>${escapeHtml(finding.quote)}</q>` : ''
  const held =
    'memoryHeld' in finding && finding.memoryHeld
      ? `<br>${escapeHtml(`(memory held: ${finding.memoryHeld.text})`)}`
      : ''
  return `${escapeHtml(finding.text)}${quote}${sourceLinks(finding.sources, sources)}${held}`
}

function changeHtml(change: ReportChange, sources: ReportSource[], before: string): string {
  const seen = change.previous.seenAt.slice(0, 10)
  return `${findingHtml(change, sources)}<br>${escapeHtml(`(${before}, ${seen}: ${change.previous.text})`)}`
}

function sourceLinks(numbers: number[], sources: ReportSource[]): string {
  const links = numbers.flatMap((n) => {
    const source = sources.find((candidate) => candidate.n === n)
    if (!source) return []
    const label = escapeHtml(source.title || source.url)
    // Only web addresses become links; anything else a page called itself stays text.
    return isWebUrl(source.url) ? [`<a href="${escapeHtml(source.url)}">${label}</a>`] : [label]
  })
  return links.length > 0 ? ` (${links.join('; ')})` : ''
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}
