// A topic's memory as one readable markdown document (the `export_topic` tool and the topic page's
// download), written from the topic's view (server/topics/views.ts). The same memory always gives
// the same bytes, so exports can be diffed.

import { sanitizeMarkdown } from '#server/text/markdown-links.ts'
import type { PlainFactView, SourceView, TopicView } from '#server/topics/contract.ts'

/**
 * `# topic`, a stats line, then `## Facts` (what memory holds true now, each with its quote and
 * what it replaced) citing `## Sources` by number as `[1][3]`, `## History` (the facts later ones
 * replaced), and `## Run history`. Sources are numbered in order of first citation, then the
 * uncited ones.
 */
export function exportTopicMarkdown(view: TopicView): string {
  const { summary } = view
  const sources = numberSources(view.sources, [
    ...view.facts.flatMap((fact) => [fact, fact.replaced?.previous]).filter((fact) => fact != null),
    ...view.history,
  ])
  const numberOf = new Map(sources.map((source, index) => [source.url, index + 1]))
  const cite = (fact: PlainFactView) => {
    const citations = [...new Set(fact.sourceUrls.map((url) => numberOf.get(url) ?? 0))]
      .sort((x, y) => x - y)
      .map((n) => `[${n}]`)
      .join('')
    return citations ? ` ${citations}` : ''
  }

  const positionOf = new Map(view.facts.map((fact, index) => [fact.id, index + 1]))
  const facts = view.facts.map((fact, index) => {
    const marker = `${index + 1}. `
    const indent = ' '.repeat(marker.length)
    const lines = [`${marker}${escapeInline(fact.text)}${cite(fact)}`]
    if (fact.replaced) {
      const { previous } = fact.replaced
      const updated = fact.replaced.change === 'updated'
      const was = previous
        ? `${updated ? `~~${escapeInline(previous.text)}~~` : escapeInline(previous.text)} (last seen ${day(previous.lastConfirmed)})${cite(previous)}`
        : `a fact no longer in memory`
      // A backslash at the end of a line is a hard line break: the "was" line stays its own line.
      lines[0] = `${lines[0]}\\`
      lines.push(`${indent}${updated ? 'Was' : 'Previously'}: ${was}`)
    }
    if (fact.quote.trim()) lines.push(`${indent}> ${escapeInline(fact.quote)}`)
    return lines.join('\n')
  })
  const replaced = view.history.map((fact) => {
    const change = fact.replacedBy?.change ?? 'updated'
    const by = positionOf.has(fact.supersededBy) ? ` by fact ${positionOf.get(fact.supersededBy)}` : ''
    const when = fact.replacedBy ? ` ${day(fact.replacedBy.at)}` : ''
    return `- ${escapeInline(fact.text)}${cite(fact)} — first seen ${day(fact.firstSeen.at)}; ${change}${when}${by}`
  })
  const sourceLines = sources.map((source, index) => {
    const title = escapeInline(source.title)
    const published = source.publishedDate ? ` (${escapeInline(displayDate(source.publishedDate))})` : ''
    return `- [${index + 1}] ${title ? `${title} — ` : ''}${linkTarget(source.url)}${published}`
  })
  const runs = view.runs.map((run) => {
    const confirmed = run.confirmedFacts ? `, ${run.confirmedFacts} confirmed` : ''
    const counts = `${plural(run.newFacts, 'new fact')}${confirmed}, ${plural(run.newSources, 'new source')}, ${plural(run.urlsRead, 'URL')} read`
    const said = run.summary?.trim() ? `: ${escapeInline(run.summary)}` : ''
    return `- ${escapeInline(displayTime(run.at))} — ${counts}${said}`
  })

  const stats = [
    `Runs: ${summary.runCount}`,
    `Facts: ${view.facts.length}`,
    `URLs read: ${summary.urlsIndexed}`,
    `Last run: ${summary.lastRunAt.slice(0, 10)}`,
    `Memory expires: ${summary.expiresAt.slice(0, 10)}`,
  ].join(' · ')

  const blocks = [
    `# ${escapeInline(summary.topic) || 'Untitled topic'}`,
    stats,
    '## Facts',
    facts.join('\n') || 'No facts yet.',
    ...(replaced.length > 0
      ? ['## History', 'Facts later runs updated or contradicted: not what memory holds now.', replaced.join('\n')]
      : []),
    '## Sources',
    sourceLines.join('\n') || 'No sources yet.',
    '## Run history',
    runs.join('\n') || 'No runs yet.',
  ]
  return `${blocks.join('\n\n')}\n`
}

/**
 * Sources in order of first citation by `facts`, then the uncited ones in memory order. A cited URL
 * missing from the sources is in its fact's resolved sources, so every citation marker resolves.
 */
function numberSources(sources: readonly SourceView[], facts: readonly PlainFactView[]): SourceView[] {
  const ordered = new Map<string, SourceView>()
  for (const fact of facts) {
    for (const source of fact.sources) if (!ordered.has(source.url)) ordered.set(source.url, source)
  }
  for (const source of sources) if (!ordered.has(source.url)) ordered.set(source.url, source)
  return [...ordered.values()]
}

/**
 * Text from the web or an LLM rendered literally on one line: whitespace (newlines included)
 * collapses so it cannot end a list item, links are sanitised (bare URLs and addresses, which
 * viewers link by themselves, defanged; bidi controls gone), inline syntax is backslash-escaped so
 * it cannot form links, emphasis, code or HTML (or fake a citation), and what would open a block at
 * the start of a line (`#`, `>`, `-`, `+`, `1.`) is escaped too. A `#` after a space is escaped
 * because a trailing ` #` would close a heading.
 */
function escapeInline(text: string): string {
  return sanitizeMarkdown(
    text
      .replace(/\p{Cc}/gu, ' ')
      .replace(/\s+/gu, ' ')
      .trim(),
  )
    .trim()
    .replace(/[\\`*_[\]<>~]/g, '\\$&')
    .replace(/(^|\s)#/g, '$1\\#')
    .replace(/^([+-])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2')
}

/** Autolinked when the URL can be; otherwise shown as escaped text rather than breaking the line. */
function linkTarget(url: string): string {
  return /^https?:\/\/[^\s<>]+$/.test(url) ? `<${url}>` : escapeInline(url)
}

/** Provider dates often carry a midnight time; the day is what a reader wants. */
function displayDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value
}

function day(value: string): string {
  return /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0] ?? escapeInline(value)
}

function displayTime(value: string): string {
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return value
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
