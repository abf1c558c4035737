// Topic memory as its readers see it, composed once for every surface: the topic pages, the MCP
// tools and the markdown export. A view splits what memory holds true now from the history of facts
// later ones replaced, resolves each fact's sources (a cited URL missing from the sources shows as
// itself), pairs each fact with the one it replaced and each replaced one with its successor, and
// addresses sources for its audience. What stays with a surface is how it writes the view: React
// escapes for the pages, the MCP text sanitises, the export escapes markdown. The URL ledger is not
// part of any view: it stays on the server.
import type { MemoryStats } from '#server/contracts/memory.ts'
import {
  compareTopics,
  currentFacts,
  memoryStats,
  predecessorOf,
  type TopicDelta,
  topicDelta,
} from '#server/memory/insights.ts'
import { searchMemory } from '#server/memory/search.ts'
import type {
  Fact,
  FactChange,
  FirstSeen,
  MemoryContent,
  RunRecord,
  Source,
  TopicMemory,
} from '#server/memory/types.ts'
import { readableUrl } from '#server/text/corpus-url.ts'
import { UUID } from '#server/text/uuid.ts'

/**
 * Who reads the view. The pages link a corpus document (`https://corpus.local/...`) to its page
 * themselves, so they get URLs as memory holds them; answers read away from the pages (MCP, the
 * export) get the document's page on this server (`PUBLIC_URL/corpus/...`) instead.
 */
export type Audience = { kind: 'page' } | { kind: 'client'; publicUrl: string }
export const PAGE: Audience = { kind: 'page' }

/** When and in which run; the run's id only when it names a run (memory written by hand may hold others). */
export type FirstSeenView = { runId: string | null; at: string }
export type SourceView = {
  url: string
  title: string
  /** The title, or the URL when the source has none. */
  label: string
  publishedDate: string | null
  firstSeen: FirstSeenView
}
/** A fact: a claim with its quote, its sources, when first seen and last confirmed. */
export type PlainFactView = {
  id: string
  text: string
  /** The words of a source that support it; '' for facts stored before quotes were kept. */
  quote: string
  sourceUrls: string[]
  sources: SourceView[]
  firstSeen: FirstSeenView
  lastConfirmed: string
}
/**
 * A fact with what it replaced: the replaced fact's id, how, and that fact (null when it has since
 * left memory, past the fact cap).
 */
export type FactView = PlainFactView & {
  replaced: { id: string; change: FactChange; previous: PlainFactView | null } | null
}
/** A fact a later one replaced: history, with the id of what replaced it, and that fact while memory holds it. */
export type HistoryFactView = PlainFactView & {
  supersededBy: string
  replacedBy: { change: FactChange; text: string; at: string } | null
}
export type TopicSummary = {
  topicId: string
  topic: string
  runCount: number
  factCount: number
  sourceCount: number
  urlsIndexed: number
  lastRunAt: string
  expiresAt: string
}
/** A run's record in memory: what it added, without the queries and questions the next run starts from. */
export type RunRecordView = Pick<
  RunRecord,
  'runId' | 'at' | 'newFacts' | 'confirmedFacts' | 'newSources' | 'urlsRead' | 'summary'
>
/** Facts and sources in memory order (first seen first); the pages show the newest first. */
export type TopicView = {
  summary: TopicSummary
  stats: MemoryStats
  facts: FactView[]
  history: HistoryFactView[]
  sources: SourceView[]
  runs: RunRecordView[]
}
export type DeltaView = {
  runId: string
  at: string
  /** Every fact the run added: the new, updated and contradicted ones together, in memory order. */
  facts: PlainFactView[]
  newFacts: FactView[]
  updated: FactView[]
  contradicted: FactView[]
  /** Facts memory already held that the run found again. */
  confirmed: number
  /** The sources the run first read. */
  sources: SourceView[]
}

export function topicSummary(memory: TopicMemory): TopicSummary {
  return {
    topicId: memory.topicId,
    topic: memory.topic,
    runCount: memory.runCount,
    factCount: currentFacts(memory.facts).length,
    sourceCount: memory.sources.length,
    urlsIndexed: memory.urlsIndexed,
    lastRunAt: memory.lastRunAt.toISOString(),
    expiresAt: memory.expiresAt.toISOString(),
  }
}

/** What memory holds of the topic: facts true now, each with what it replaced; history; sources; runs. */
export function topicView(memory: TopicMemory, audience: Audience): TopicView {
  const viewer = factViewer(memory.facts, memory.sources, audience)
  const byId = new Map(memory.facts.map((fact) => [fact.id, fact]))
  return {
    summary: topicSummary(memory),
    stats: memoryStats(memory),
    facts: currentFacts(memory.facts).map(viewer.fact),
    history: memory.facts.flatMap((fact) => {
      if (!fact.supersededBy) return []
      const successor = byId.get(fact.supersededBy)
      return {
        ...viewer.plain(fact),
        supersededBy: fact.supersededBy,
        replacedBy: successor
          ? { change: successor.supersedes?.change ?? 'updated', text: successor.text, at: successor.firstSeen.at }
          : null,
      }
    }),
    sources: memory.sources.map(viewer.source),
    runs: memory.runs.map(({ runId, at, newFacts, confirmedFacts, newSources, urlsRead, summary }) => ({
      runId,
      at,
      newFacts,
      ...(confirmedFacts === undefined ? {} : { confirmedFacts }),
      newSources,
      urlsRead,
      ...(summary === undefined ? {} : { summary }),
    })),
  }
}

/** What the latest run changed (see topicDelta); undefined before any run. */
export function deltaView(memory: MemoryContent, audience: Audience): DeltaView | undefined {
  const delta = topicDelta(memory)
  return delta && viewDelta(memory, delta, audience)
}

/** The view of a delta already computed from the memory (see topicDelta). */
export function viewDelta(memory: MemoryContent, delta: TopicDelta, audience: Audience): DeltaView {
  const viewer = factViewer(memory.facts, memory.sources, audience)
  return {
    runId: delta.runId,
    at: delta.at,
    facts: delta.facts.map(viewer.plain),
    newFacts: delta.newFacts.map(viewer.fact),
    updated: delta.updated.map(({ fact }) => viewer.fact(fact)),
    contradicted: delta.contradicted.map(({ fact }) => viewer.fact(fact)),
    confirmed: delta.confirmed,
    sources: delta.sources.map(viewer.source),
  }
}

export type SearchHitView = { topicId: string; topic: string; fact: FactView; matched: string[]; score: number }

/** The facts of the account's topics that best match the words (see searchMemory). */
export function searchView(
  memories: readonly TopicMemory[],
  query: string,
  options: { limit?: number },
  audience: Audience,
): SearchHitView[] {
  const byId = new Map(memories.map((memory) => [memory.topicId, memory]))
  const topics = memories.map((memory) => ({ topicId: memory.topicId, topic: memory.topic, content: memory }))
  return searchMemory(topics, query, options).map((hit) => {
    const memory = byId.get(hit.topicId)
    const viewer = factViewer(memory?.facts ?? [], memory?.sources ?? [], audience)
    return {
      topicId: hit.topicId,
      topic: hit.topic,
      fact: viewer.fact(hit.fact),
      matched: hit.matched,
      score: hit.score,
    }
  })
}

/** Two topics side by side: the facts and sources they share and those only one of them holds. */
export function comparisonView(a: TopicMemory, b: TopicMemory, audience: Audience) {
  const comparison = compareTopics({ topic: a.topic, content: a }, { topic: b.topic, content: b })
  const urlsA = new Set(a.sources.map((source) => source.url))
  const viewer = factViewer(
    [...a.facts, ...b.facts],
    [...a.sources, ...b.sources.filter((source) => !urlsA.has(source.url))],
    audience,
  )
  return {
    a: topicSummary(a),
    b: topicSummary(b),
    summary: comparison.summary,
    sharedFacts: comparison.sharedFacts.map((pair) => ({
      a: viewer.fact(pair.a),
      b: viewer.fact(pair.b),
      sameText: pair.a.id === pair.b.id,
    })),
    sharedSources: comparison.sharedSources.map(viewer.source),
    onlyA: { facts: comparison.onlyA.facts.map(viewer.fact), sources: comparison.onlyA.sources.map(viewer.source) },
    onlyB: { facts: comparison.onlyB.facts.map(viewer.fact), sources: comparison.onlyB.sources.map(viewer.source) },
  }
}

export type ComparisonView = ReturnType<typeof comparisonView>

/** Facts and sources as views, over one topic's facts (for what each replaced) and sources. */
function factViewer(facts: readonly Fact[], sources: readonly Source[], audience: Audience) {
  const address =
    audience.kind === 'client' ? (url: string) => readableUrl(url, audience.publicUrl) : (url: string) => url
  const source = (record: Source): SourceView => {
    const url = address(record.url)
    return {
      url,
      title: record.title,
      label: record.title || url,
      publishedDate: record.publishedDate,
      firstSeen: firstSeenView(record.firstSeen),
    }
  }
  const byUrl = new Map(sources.map((record) => [record.url, source(record)]))
  const predecessor = predecessorOf(facts)
  const plain = (fact: Fact): PlainFactView => ({
    id: fact.id,
    text: fact.text,
    quote: fact.quote,
    sourceUrls: fact.sourceUrls.map(address),
    sources: fact.sourceUrls.map(
      (url) => byUrl.get(url) ?? source({ url, title: '', publishedDate: null, firstSeen: fact.firstSeen }),
    ),
    firstSeen: firstSeenView(fact.firstSeen),
    lastConfirmed: fact.lastConfirmed,
  })
  const fact = (record: Fact): FactView => {
    const previous = predecessor(record)
    return {
      ...plain(record),
      replaced: record.supersedes
        ? { id: record.supersedes.id, change: record.supersedes.change, previous: previous ? plain(previous) : null }
        : null,
    }
  }
  return { plain, fact, source }
}

function firstSeenView(firstSeen: FirstSeen): FirstSeenView {
  return { runId: UUID.test(firstSeen.runId) ? firstSeen.runId : null, at: firstSeen.at }
}
