// What the surfaces (REST, MCP, dashboard) ask of memory beyond load/save: each loads the account's
// live, readable memory and applies a pure function to it. Another account's topic is no topic.
import { exportTopicMarkdown } from '#server/memory/export.ts'
import { compareTopics, type TopicComparison, type TopicDelta, topicDelta } from '#server/memory/insights.ts'
import { type MemorySearchHit, searchMemory } from '#server/memory/search.ts'
import { loadAccountMemories, loadTopicMemory, type MemoryContext } from '#server/memory/store.ts'

/** What the latest run on the topic added; undefined when the topic has no memory. */
export async function getTopicDelta(
  context: MemoryContext,
  accountId: string,
  topic: string,
): Promise<TopicDelta | undefined> {
  const memory = await loadTopicMemory(context, accountId, topic)
  return memory && topicDelta(memory)
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
): Promise<string | undefined> {
  const memory = await loadTopicMemory(context, accountId, topic)
  return memory && exportTopicMarkdown(memory)
}
