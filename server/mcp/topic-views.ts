// What the MCP topic tools answer: `get_topic_memory` (the facts memory holds true now, with their
// quotes and dates, and apart from them the history of facts later ones replaced) and
// `get_topic_delta` (the latest run's new, updated and contradicted facts and its confirmed count).
// The delta's text lists every fact with numbered source URLs, so a client that reads only text
// still has working references; page and model text in it is sanitised markdown on one line.

import type { ToolOutput, TopicDeltaOutput, TopicMemoryOutput } from '#server/contracts/mcp.ts'
import { sourcesText } from '#server/mcp/tool-text.ts'
import { countPhrases } from '#server/research/report-summary.ts'
import { stripBidiControls } from '#server/text/bidi.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'
import type { DeltaView, FactView, PlainFactView, TopicView } from '#server/topics/contract.ts'

/**
 * A fact as the tools give it: its text sanitised as a report's claims are (no link, no bidi
 * control); its quote verbatim, so a client can find it on the page, but for bidi controls.
 */
function factOutput(fact: PlainFactView) {
  return {
    id: fact.id,
    text: sanitizeMarkdown(fact.text),
    quote: stripBidiControls(fact.quote),
    sourceUrls: fact.sourceUrls,
    firstSeen: fact.firstSeen.at,
    lastConfirmed: fact.lastConfirmed,
  }
}

export function topicMemoryView(view: TopicView): Omit<ToolOutput<typeof TopicMemoryOutput>, 'notice'> {
  return {
    topic: stripBidiControls(view.summary.topic),
    stats: view.stats,
    facts: view.facts.map((fact) => ({
      ...factOutput(fact),
      ...(fact.replaced ? { supersedes: { id: fact.replaced.id, change: fact.replaced.change } } : {}),
    })),
    history: view.history.map((fact) => ({ ...factOutput(fact), supersededBy: fact.supersededBy })),
    sources: view.sources.map((source) => ({
      url: source.url,
      title: stripBidiControls(source.title),
      publishedDate: source.publishedDate,
    })),
  }
}

export function topicDeltaView(delta: DeltaView): Omit<ToolOutput<typeof TopicDeltaOutput>, 'notice'> {
  const change = (fact: FactView) => ({
    ...factOutput(fact),
    previous: fact.replaced?.previous ? factOutput(fact.replaced.previous) : null,
  })
  return {
    runId: delta.runId,
    at: delta.at,
    newFacts: delta.newFacts.map(factOutput),
    updated: delta.updated.map(change),
    contradicted: delta.contradicted.map(change),
    confirmed: delta.confirmed,
    facts: delta.facts.map((fact) => ({ text: sanitizeMarkdown(fact.text), sourceUrls: fact.sourceUrls })),
    sources: delta.sources.map((source) => ({ url: source.url, title: stripBidiControls(source.title) })),
  }
}

type DeltaOutput = ReturnType<typeof topicDeltaView>
type MemoryOutput = ReturnType<typeof topicMemoryView>
type FactLike = { text: string; quote: string; sourceUrls: string[]; lastConfirmed: string }

/**
 * Facts as lines of text, their source URLs numbered in order of first citation; `sources()` is the
 * numbered list ("[n] title — url") the citations resolve to.
 */
function factWriter(titles: ReadonlyMap<string, string>) {
  const numbers = new Map<string, number>()
  const cite = (urls: string[]) =>
    urls
      .map((url) => {
        if (!numbers.has(url)) numbers.set(url, numbers.size + 1)
        return `[${numbers.get(url)}]`
      })
      .join('')
  return {
    cite,
    item(fact: FactLike): string[] {
      const lines = [`- ${line(fact.text)} ${cite(fact.sourceUrls)}`.trimEnd()]
      if (fact.quote.trim()) lines.push(`  Quote: “${line(fact.quote)}”`)
      return lines
    },
    sources(): string {
      return sourcesText([...numbers].map(([url, n]) => ({ n, url, title: titles.get(url) ?? '' })))
    },
  }
}

/** The title of each source a delta's facts and the facts they replaced cite, by URL. */
export function deltaTitles(delta: DeltaView): Map<string, string> {
  const titles = new Map<string, string>()
  const facts = [delta.newFacts, delta.updated, delta.contradicted].flat()
  for (const fact of [...facts, ...facts.map((each) => each.replaced?.previous)]) {
    for (const source of fact?.sources ?? []) titles.set(source.url, source.title)
  }
  return titles
}

/**
 * The delta as text: a counts line, then each updated fact with its quote and what it was, each
 * contradicted one with what memory held before, each new one, then the sources by number.
 */
export function topicDeltaText(topic: string, delta: DeltaOutput, titles: ReadonlyMap<string, string>): string {
  const writer = factWriter(titles)
  const change = (label: string) => (fact: FactLike & { previous: FactLike | null }) => [
    ...writer.item(fact),
    fact.previous
      ? `  ${label}: ${line(fact.previous.text)} (last seen ${day(fact.previous.lastConfirmed)}) ${writer.cite(fact.previous.sourceUrls)}`.trimEnd()
      : `  ${label}: a fact no longer in memory`,
  ]
  const counts = countPhrases([
    [delta.newFacts.length, 'new'],
    [delta.updated.length, 'updated'],
    [delta.contradicted.length, 'contradicted'],
  ])
  const confirmed =
    delta.confirmed > 0 ? `${delta.confirmed === 1 ? '1 fact' : `${delta.confirmed} facts`} confirmed` : ''
  const summary = [counts.join(', ') || 'nothing new', confirmed].filter(Boolean).join('; ')
  const blocks = [`What the latest run on ${line(topic)} (${day(delta.at)}, run ${delta.runId}) changed: ${summary}.`]
  if (delta.updated.length > 0) blocks.push(['Updated:', ...delta.updated.flatMap(change('Was'))].join('\n'))
  if (delta.contradicted.length > 0) {
    blocks.push(['Contradicted:', ...delta.contradicted.flatMap(change('Previously'))].join('\n'))
  }
  if (delta.newFacts.length > 0) blocks.push(['New:', ...delta.newFacts.flatMap(writer.item)].join('\n'))
  blocks.push(writer.sources())
  return blocks.join('\n\n')
}

/**
 * The memory as text: counts, each current fact with its quote, dates and what it replaced, the
 * history of replaced facts, then every source by number.
 */
export function topicMemoryText(memory: MemoryOutput): string {
  const writer = factWriter(new Map(memory.sources.map((source) => [source.url, source.title])))
  const replaced = new Map(memory.history.map((fact) => [fact.id, fact]))
  const { stats } = memory
  const facts = memory.facts.flatMap((fact) => {
    const previous = fact.supersedes && replaced.get(fact.supersedes.id)
    const dates =
      fact.lastConfirmed > fact.firstSeen
        ? `First seen ${day(fact.firstSeen)}; last confirmed ${day(fact.lastConfirmed)}.`
        : `First seen ${day(fact.firstSeen)}.`
    return [
      ...writer.item(fact),
      `  ${dates}`,
      ...(fact.supersedes
        ? [
            `  ${fact.supersedes.change === 'updated' ? 'Was' : 'Previously'}: ${previous ? `${line(previous.text)} ${writer.cite(previous.sourceUrls)}`.trimEnd() : 'a fact no longer in memory'}`,
          ]
        : []),
    ]
  })
  const history = memory.history.flatMap((fact) => [
    `- ${line(fact.text)} ${writer.cite(fact.sourceUrls)}`.trimEnd(),
    `  First seen ${day(fact.firstSeen)}; last seen ${day(fact.lastConfirmed)}; replaced by a later fact.`,
  ])
  writer.cite(memory.sources.map((source) => source.url))
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  const blocks = [
    `Sextant's memory of ${line(memory.topic)}: ${plural(stats.runCount, 'run')}, ${plural(memory.facts.length, 'fact')}, ${plural(stats.urlsIndexed, 'URL')} read; last run ${day(stats.lastRunAt)}.`,
    facts.length > 0 ? ['Facts:', ...facts].join('\n') : 'Facts: none yet.',
  ]
  if (history.length > 0) blocks.push(['History (facts later runs updated or contradicted):', ...history].join('\n'))
  blocks.push(writer.sources())
  return blocks.join('\n\n')
}

/** Page or model text on one line, its links sanitised. */
function line(text: string): string {
  return sanitizeMarkdown(text.replace(/\s+/g, ' ').trim())
}

function day(iso: string): string {
  return iso.slice(0, 10)
}
