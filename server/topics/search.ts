// Keyword search over the facts of an account's topics (the `search_memory` tool).

import { bm25 } from '#server/text/bm25.ts'
import { wordTokens } from '#server/text/words.ts'
import type { Fact, MemoryContent } from '#server/topics/contract.ts'

export type SearchableTopic = { topicId: string; topic: string; content: MemoryContent }

export type MemorySearchHit = { topicId: string; topic: string; fact: Fact; score: number; matched: string[] }

const DEFAULT_LIMIT = 20
const MAX_LIMIT = 100
/** At most this share of a fact's own score: a topic name alone never outranks what a fact says. */
const TOPIC_NAME_BOOST = 0.1

/**
 * BM25 (k1 1.2, b 0.75) with every fact of every given topic as the corpus, so a term that is rare
 * across the account weighs more than one that appears in most facts. Only facts containing at least
 * one query term are returned. Ties go to the newer fact, then the lower fact id and topic id.
 */
export function searchMemory(
  topics: SearchableTopic[],
  query: string,
  options: { limit?: number } = {},
): MemorySearchHit[] {
  const queryTerms = [...new Set(wordTokens(query))]
  if (queryTerms.length === 0) return []

  const documents = topics.flatMap(({ topicId, topic, content }) =>
    content.facts
      .filter((fact) => !fact.supersededBy)
      .map((fact) => ({ topicId, topic, fact, tokens: wordTokens(fact.text) })),
  )
  if (documents.length === 0) return []
  const score = bm25(documents.map((document) => document.tokens))
  const topicNameShare = new Map(
    topics.map(({ topicId, topic }) => {
      const nameTerms = new Set(wordTokens(topic))
      return [topicId, queryTerms.filter((term) => nameTerms.has(term)).length / queryTerms.length]
    }),
  )

  const hits: MemorySearchHit[] = []
  documents.forEach(({ topicId, topic, fact, tokens }, index) => {
    const words = new Set(tokens)
    const matched = queryTerms.filter((term) => words.has(term))
    if (matched.length === 0) return
    const boost = 1 + TOPIC_NAME_BOOST * (topicNameShare.get(topicId) ?? 0)
    hits.push({ topicId, topic, fact, score: score(index, matched) * boost, matched })
  })

  hits.sort(
    (x, y) =>
      y.score - x.score ||
      compareTimesNewestFirst(x.fact.firstSeen.at, y.fact.firstSeen.at) ||
      compareStrings(x.fact.id, y.fact.id) ||
      compareStrings(x.topicId, y.topicId),
  )
  return hits.slice(0, resolveLimit(options.limit))
}

function resolveLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)))
}

// Times are compared as instants so offsets and fractional seconds order correctly; an unparsable
// time sorts last, then falls back to text order to stay deterministic.
function compareTimesNewestFirst(x: string, y: string): number {
  const xMs = Date.parse(x)
  const yMs = Date.parse(y)
  if (Number.isNaN(xMs) || Number.isNaN(yMs)) {
    return Number(Number.isNaN(xMs)) - Number(Number.isNaN(yMs)) || compareStrings(y, x)
  }
  return yMs - xMs
}

// Code-unit order rather than localeCompare: the same everywhere, whatever the host's ICU data.
function compareStrings(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0
}
