// What the surfaces (REST, MCP, dashboard) ask of memory beyond load/save: each loads the account's
// live, readable memory and applies a pure function to it. Another account's topic is no topic.
import { exportTopicMarkdown } from '#server/memory/export.ts'
import { compareTopics, type TopicComparison, type TopicDelta, topicDelta } from '#server/memory/insights.ts'
import { type MemorySearchHit, searchMemory } from '#server/memory/search.ts'
import { loadAccountMemories, loadTopicMemory, type MemoryContext } from '#server/memory/store.ts'
import type { Source } from '#server/memory/types.ts'

/**
 * What the latest run on the topic changed, with the topic's display name and all its sources (the
 * pages its facts and the facts they replaced cite); undefined when the topic has no memory.
 */
export async function getTopicDelta(
  context: MemoryContext,
  accountId: string,
  topic: string,
): Promise<{ topic: string; delta: TopicDelta; sources: Source[] } | undefined> {
  const memory = await loadTopicMemory(context, accountId, topic)
  const delta = memory && topicDelta(memory)
  return memory && delta ? { topic: memory.topic, delta, sources: memory.sources } : undefined
}

export async function searchAccountMemory(
  context: MemoryContext,
  accountId: string,
  query: string,
  options: { limit?: number } = {},
): Promise<MemorySearchHit[]> {
  const memories = await loadAccountMemories(context, accountId)
  return searchMemory(
    memories.map((memory) => ({ topicId: memory.topicId, topic: memory.topic, content: memory })),
    query,
    options,
  )
}

/** Both topics' memory compared; `missing` names a topic without memory instead. */
export async function compareAccountTopics(
  context: MemoryContext,
  accountId: string,
  topicA: string,
  topicB: string,
): Promise<{ comparison: TopicComparison } | { missing: string[] }> {
  const [a, b] = await Promise.all([
    loadTopicMemory(context, accountId, topicA),
    loadTopicMemory(context, accountId, topicB),
  ])
  if (!a || !b)
    return { missing: [!a ? topicA : undefined, !b ? topicB : undefined].filter((topic) => topic !== undefined) }
  return { comparison: compareTopics({ topic: a.topic, content: a }, { topic: b.topic, content: b }) }
}

export async function exportTopic(
  context: MemoryContext,
  accountId: string,
  topic: string,
  options: { publicUrl?: string } = {},
): Promise<string | undefined> {
  const memory = await loadTopicMemory(context, accountId, topic)
  return memory && exportTopicMarkdown(memory, options)
}
