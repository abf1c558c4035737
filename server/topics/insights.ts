// What decrypted topic memory says, read-only: the latest run's delta, the facts true now, what a
// fact replaced, two topics compared, the memory check's counts. server/topics/views.ts makes the
// views the surfaces show from these.

import { wordTokens } from '#server/text/words.ts'
import type {
  ComparisonSummary,
  Fact,
  MemoryContent,
  MemoryStats,
  Source,
  TopicMemory,
} from '#server/topics/contract.ts'

/** A fact that replaced another, with the one it replaced when memory still holds it. */
export type FactSuccession = { fact: Fact; previous: Fact | undefined }

export type TopicDelta = {
  runId: string
  at: string
  /** Every fact the run added: the new, updated and contradicted ones together, in memory order. */
  facts: Fact[]
  /** Facts memory held nothing about before the run. */
  newFacts: Fact[]
  /** Facts that replaced one memory held with another figure or date. */
  updated: FactSuccession[]
  /** Facts that said the opposite of one memory held. */
  contradicted: FactSuccession[]
  /** Facts memory already held that the run found again (0 in records from before claims). */
  confirmed: number
  sources: Source[]
}

export type ComparedTopic = { topic: string; content: MemoryContent }

export type TopicComparison = {
  topics: [string, string]
  /** A's records of the sources both topics hold. */
  sharedSources: Source[]
  onlyA: { facts: Fact[]; sources: Source[] }
  onlyB: { facts: Fact[]; sources: Source[] }
  sharedFacts: Array<{ a: Fact; b: Fact }>
  summary: ComparisonSummary
}

/** Facts at least this similar (Jaccard over word tokens) and citing a common source are one claim. */
const SHARED_FACT_MIN_OVERLAP = 0.6

/**
 * What the latest run changed: the facts first seen in memory.runs[0], each as new, updated or
 * contradicted (the last two with the fact they replaced), the count it confirmed, its new sources.
 */
export function topicDelta(memory: MemoryContent): TopicDelta | undefined {
  const latest = memory.runs[0]
  if (!latest) return undefined
  const facts = memory.facts.filter((fact) => fact.firstSeen.runId === latest.runId)
  const predecessor = predecessorOf(memory.facts)
  const succession = (change: 'updated' | 'contradicted') =>
    facts.filter((fact) => fact.supersedes?.change === change).map((fact) => ({ fact, previous: predecessor(fact) }))
  return {
    runId: latest.runId,
    at: latest.at,
    facts,
    newFacts: facts.filter((fact) => !fact.supersedes),
    updated: succession('updated'),
    contradicted: succession('contradicted'),
    confirmed: latest.confirmedFacts ?? 0,
    sources: memory.sources.filter((source) => source.firstSeen.runId === latest.runId),
  }
}

/** Facts memory holds true now: those no later fact has replaced. */
export function currentFacts(facts: readonly Fact[]): Fact[] {
  return facts.filter((fact) => !fact.supersededBy)
}

/**
 * The fact a fact replaced, looked up by `supersedes.id`; undefined when it replaced none, or when
 * the replaced one has since left memory (past the fact cap).
 */
export function predecessorOf(facts: readonly Fact[]): (fact: Fact) => Fact | undefined {
  const byId = new Map(facts.map((fact) => [fact.id, fact]))
  return (fact) => (fact.supersedes ? byId.get(fact.supersedes.id) : undefined)
}

/**
 * Sources are shared when both topics hold the same URL (memory URLs are already canonical).
 *
 * Facts are shared when they have the same id (the same normalized text), or else when they cite
 * at least one common source URL and their word-token sets overlap with Jaccard >= 0.6: the same
 * claim reworded, and the common source keeps unrelated sentences with similar wording apart.
 * Pairs are one-to-one: id matches first, then the most similar remaining pairs, so each fact
 * appears once, either in a pair or in its topic's `only` list. Lists keep memory order.
 */
export function compareTopics(a: ComparedTopic, b: ComparedTopic): TopicComparison {
  const urlsA = new Set(a.content.sources.map((source) => source.url))
  const urlsB = new Set(b.content.sources.map((source) => source.url))
  const sharedSources = a.content.sources.filter((source) => urlsB.has(source.url))

  const factsA = a.content.facts.filter((fact) => !fact.supersededBy)
  const factsB = b.content.facts.filter((fact) => !fact.supersededBy)
  const partnerOfA = matchFacts(factsA, factsB)
  const pairedB = new Set(partnerOfA.values())

  const sharedFacts = factsA.flatMap((fact, indexA) => {
    const partner = factsB[partnerOfA.get(indexA) ?? -1]
    return partner ? [{ a: fact, b: partner }] : []
  })

  return {
    topics: [a.topic, b.topic],
    sharedSources,
    onlyA: {
      facts: factsA.filter((_, index) => !partnerOfA.has(index)),
      sources: a.content.sources.filter((source) => !urlsB.has(source.url)),
    },
    onlyB: {
      facts: factsB.filter((_, index) => !pairedB.has(index)),
      sources: b.content.sources.filter((source) => !urlsA.has(source.url)),
    },
    sharedFacts,
    summary: {
      factsA: factsA.length,
      factsB: factsB.length,
      sourcesA: a.content.sources.length,
      sourcesB: b.content.sources.length,
      sharedFacts: sharedFacts.length,
      sharedSources: sharedSources.length,
    },
  }
}

/** One-to-one pairs of shared facts, as index in A → index in B (see compareTopics). */
function matchFacts(factsA: Fact[], factsB: Fact[]): Map<number, number> {
  const partnerOfA = new Map<number, number>()
  const pairedB = new Set<number>()
  function pair(indexA: number, indexB: number) {
    partnerOfA.set(indexA, indexB)
    pairedB.add(indexB)
  }

  const indexOfIdB = new Map<string, number>()
  factsB.forEach((fact, index) => {
    if (!indexOfIdB.has(fact.id)) indexOfIdB.set(fact.id, index)
  })
  factsA.forEach((fact, indexA) => {
    const indexB = indexOfIdB.get(fact.id)
    if (indexB !== undefined && !pairedB.has(indexB)) pair(indexA, indexB)
  })

  // Only facts that cite a common URL are compared, which keeps this far from |A| × |B|.
  const citingB = new Map<string, number[]>()
  factsB.forEach((fact, index) => {
    if (pairedB.has(index)) return
    for (const url of new Set(fact.sourceUrls)) {
      const citing = citingB.get(url)
      if (citing) citing.push(index)
      else citingB.set(url, [index])
    }
  })
  const tokensB = new Map<number, Set<string>>()
  const candidates: Array<{ indexA: number; indexB: number; overlap: number }> = []
  factsA.forEach((fact, indexA) => {
    if (partnerOfA.has(indexA)) return
    const tokensA = new Set(wordTokens(fact.text))
    const compared = new Set<number>()
    for (const url of fact.sourceUrls) {
      for (const indexB of citingB.get(url) ?? []) {
        if (compared.has(indexB)) continue
        compared.add(indexB)
        let tokens = tokensB.get(indexB)
        if (!tokens) {
          tokens = new Set(wordTokens(factsB[indexB]?.text ?? ''))
          tokensB.set(indexB, tokens)
        }
        const overlap = jaccard(tokensA, tokens)
        if (overlap >= SHARED_FACT_MIN_OVERLAP) candidates.push({ indexA, indexB, overlap })
      }
    }
  })
  candidates.sort((x, y) => y.overlap - x.overlap || x.indexA - y.indexA || x.indexB - y.indexB)
  for (const { indexA, indexB } of candidates) {
    if (!partnerOfA.has(indexA) && !pairedB.has(indexB)) pair(indexA, indexB)
  }
  return partnerOfA
}

function jaccard(x: Set<string>, y: Set<string>): number {
  if (x.size === 0 && y.size === 0) return 0
  let common = 0
  for (const token of x) if (y.has(token)) common++
  return common / (x.size + y.size - common)
}

/** The memory check's counts (spec 2.4), as the REST API and MCP give them. */
export function memoryStats(
  memory: Pick<TopicMemory, 'runCount' | 'urlsIndexed' | 'factsStored' | 'lastRunAt'>,
): MemoryStats {
  return {
    runCount: memory.runCount,
    urlsIndexed: memory.urlsIndexed,
    factsStored: memory.factsStored,
    lastRunAt: memory.lastRunAt.toISOString(),
  }
}
