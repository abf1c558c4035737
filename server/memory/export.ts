// A topic's memory as one readable markdown document (the `export_topic` tool). The same memory
// always gives the same bytes, so exports can be diffed.
import type { Source, TopicMemory } from '#server/memory/types.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

/**
 * `# topic`, a stats line, then `## Facts` citing `## Sources` by number as `[1][3]`, and
 * `## Run history`. Sources are numbered in order of first citation, then the uncited ones.
 */
export function exportTopicMarkdown(memory: TopicMemory): string {
  const sources = numberSources(memory)
  const numberOf = new Map(sources.map((source, index) => [source.url, index + 1]))

  const facts = memory.facts.map((fact, index) => {
    const citations = [...new Set(fact.sourceUrls.map((url) => numberOf.get(url) ?? 0))]
      .sort((x, y) => x - y)
      .map((n) => `[${n}]`)
      .join('')
    return `${index + 1}. ${escapeInline(fact.text)}${citations ? ` ${citations}` : ''}`
  })
  const sourceLines = sources.map((source, index) => {
    const title = escapeInline(source.title)
    const published = source.publishedDate ? ` (${escapeInline(displayDate(source.publishedDate))})` : ''
    return `- [${index + 1}] ${title ? `${title} — ` : ''}${linkTarget(source.url)}${published}`
  })
  const runs = memory.runs.map((run) => {
    const counts = `${plural(run.newFacts, 'new fact')}, ${plural(run.newSources, 'new source')}, ${plural(run.urlsRead, 'URL')} read`
    const summary = run.summary?.trim() ? `: ${escapeInline(run.summary)}` : ''
    return `- ${escapeInline(displayTime(run.at))} — ${counts}${summary}`
  })

  const stats = [
    `Runs: ${memory.runCount}`,
    `Facts: ${memory.facts.length}`,
    `URLs read: ${memory.urlsIndexed}`,
    `Last run: ${memory.lastRunAt.toISOString().slice(0, 10)}`,
    `Memory expires: ${memory.expiresAt.toISOString().slice(0, 10)}`,
  ].join(' · ')

  const blocks = [
    `# ${escapeInline(memory.topic) || 'Untitled topic'}`,
    stats,
    '## Facts',
    facts.join('\n') || 'No facts yet.',
    '## Sources',
    sourceLines.join('\n') || 'No sources yet.',
    '## Run history',
    runs.join('\n') || 'No runs yet.',
  ]
  return `${blocks.join('\n\n')}\n`
}

/**
 * Sources in citation order, then the uncited ones in memory order. A cited URL missing from
 * `sources` still gets an entry, so every citation marker resolves.
 */
function numberSources(memory: TopicMemory): Source[] {
  const byUrl = new Map(memory.sources.map((source) => [source.url, source]))
  const ordered = new Map<string, Source>()
  for (const fact of memory.facts) {
    for (const url of fact.sourceUrls) {
      if (!ordered.has(url)) {
        ordered.set(url, byUrl.get(url) ?? { url, title: '', publishedDate: null, firstSeen: fact.firstSeen })
      }
    }
  }
  for (const source of memory.sources) if (!ordered.has(source.url)) ordered.set(source.url, source)
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

function displayTime(value: string): string {
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return value
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
