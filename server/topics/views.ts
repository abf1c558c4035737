// Topic memory as its readers see it, composed once for every surface: the topic pages, the MCP
// tools and the markdown export. A view splits what memory holds true now from the history of facts
// later ones replaced, resolves each fact's sources (a cited URL missing from the sources shows as
// itself), pairs each fact with the one it replaced and each replaced one with its successor, and
// addresses sources for its audience. What stays with a surface is how it writes the view: React
// escapes for the pages, the MCP text sanitises, the export escapes markdown. The URL ledger is not
// part of any view: it stays on the server.

import { readableUrl } from '#server/text/corpus-url.ts'
import { UUID } from '#server/text/uuid.ts'
import type {
  Audience,
  ComparisonView,
  DeltaView,
  Fact,
  FactView,
  FirstSeen,
  FirstSeenView,
  MemoryContent,
  PlainFactView,
  SearchHitView,
  Source,
  SourceView,
  TopicMemory,
  TopicSummary,
  TopicView,
} from '#server/topics/contract.ts'
import {
  compareTopics,
  currentFacts,
  memoryStats,
  predecessorOf,
  type TopicDelta,
  topicDelta,
} from '#server/topics/insights.ts'
import { searchMemory } from '#server/topics/search.ts'

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
export function comparisonView(a: TopicMemory, b: TopicMemory, audience: Audience): ComparisonView {
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
