// The plan used when there is no language model or its plan was unusable (spec 7.3): queries built
// from the brief alone, so the same brief always searches the same way.

import type { Plan, PlanInput } from '#server/providers/types.ts'
import { topicKey } from '#server/text/topic-key.ts'
import { wordTokens } from '#server/text/words.ts'

/** Angles for spare query slots when the brief names none of its own, in the order they are used. */
const GENERIC_ANGLES = ['latest developments', 'data and statistics', 'analysis', 'challenges and risks', 'outlook']

/**
 * The topic, then the topic with the objective, each focus area and each framework hint, then generic
 * angles to fill spare slots. A follow-up round skips what round one already searched. Queries are
 * deduplicated case-insensitively and capped at `maxQueries`; there is always at least one.
 */
export function fallbackPlan(input: PlanInput): Plan {
  const topic = oneLine(input.topic)
  const limit = Number.isFinite(input.maxQueries) ? Math.max(1, Math.floor(input.maxQueries)) : 1
  const angles = [input.objective ?? '', ...input.focus, ...(input.framework?.queryHints ?? []), ...GENERIC_ANGLES]
    .map(oneLine)
    .filter(Boolean)
  const queries = new Map<string, string>()
  const add = (query: string) => {
    const key = topicKey(query)
    if (key && !queries.has(key) && queries.size < limit) queries.set(key, query)
  }

  if (!input.followUp) {
    add(topic)
    for (const angle of angles) add(withTopic(topic, angle))
  } else {
    // A query counts as searched when an earlier query held all its words, whatever their order.
    const searched = input.followUp.queries.map((query) => new Set(wordTokens(query)))
    const alreadySearched = (query: string) =>
      searched.some((words) => wordTokens(query).every((word) => words.has(word)))
    for (const angle of angles) {
      const query = withTopic(topic, angle)
      if (!alreadySearched(query)) add(query)
    }
    // Every angle was searched: the topic again is still a query, and the ledger drops what was read.
    add(topic)
  }
  return { queries: queries.size > 0 ? [...queries.values()] : [input.topic] }
}

/** "topic angle", or the topic alone when the angle adds no word the topic lacks. */
function withTopic(topic: string, angle: string): string {
  const topicWords = new Set(wordTokens(topic))
  return wordTokens(angle).every((word) => topicWords.has(word)) ? topic : `${topic} ${angle}`
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
