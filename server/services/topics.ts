// Topic memory, as the surfaces (REST, MCP, the dashboard) ask for it: each call loads the account's
// live, readable memory and applies a pure function to it. Another account's topic is no topic.
import { exportTopicMarkdown } from '#server/memory/export.ts'
import { compareTopics, type TopicComparison, type TopicDelta, topicDelta } from '#server/memory/insights.ts'
import { type MemorySearchHit, searchMemory } from '#server/memory/search.ts'
import {
  checkTopicMemory,
  loadAccountMemories,
  loadTopicMemory,
  loadTopicMemoryById,
  type MemoryContext,
} from '#server/memory/store.ts'
import type { Source, TopicMemory } from '#server/memory/types.ts'
import { purgeExpiredMemory } from '#server/repositories/topic-memory.ts'

export type TopicServiceDeps = {
  memory: MemoryContext
  /** Where corpus sources are readable, for exports read away from the pages. */
  publicUrl: string
}

export function createTopicService(deps: TopicServiceDeps) {
  const context = deps.memory
  return {
    /** The memory check of spec 2.4: counts, or null for no (live, readable) memory. */
    check: (accountId: string, topic: string) => checkTopicMemory(context, accountId, topic),
    /** The topic's memory (the topic in any spelling), or undefined. */
    load: (accountId: string, topic: string) => loadTopicMemory(context, accountId, topic),
    /** By the topic's id (the dashboard's addresses), with its hash for finding its runs. */
    loadById: (accountId: string, topicId: string) => loadTopicMemoryById(context, accountId, topicId),
    /** Every live topic memory of the account, most recently researched first. */
    all: (accountId: string): Promise<TopicMemory[]> => loadAccountMemories(context, accountId),
    delta: (accountId: string, topic: string) => getTopicDelta(context, accountId, topic),
    search: (accountId: string, query: string, options: { limit?: number } = {}) =>
      searchAccountMemory(context, accountId, query, options),
    compare: (accountId: string, topicA: string, topicB: string) =>
      compareAccountTopics(context, accountId, topicA, topicB),
    /** The topic as a markdown document; undefined without memory. */
    async export(accountId: string, topic: string): Promise<string | undefined> {
      const memory = await loadTopicMemory(context, accountId, topic)
      return memory && exportTopicMarkdown(memory, { publicUrl: deps.publicUrl })
    },
    /** The topic page's download: the markdown document, and the topic's name for the file's. */
    async exportFile(accountId: string, topicId: string): Promise<{ topic: string; markdown: string } | undefined> {
      const memory = await loadTopicMemoryById(context, accountId, topicId)
      return memory && { topic: memory.topic, markdown: exportTopicMarkdown(memory, { publicUrl: deps.publicUrl }) }
    },
    /** The memory cron: deletes memory past its 30 days; how many topics went. */
    purgeExpired: () => purgeExpiredMemory(context.db, context.now()),
  }
}

export type TopicService = ReturnType<typeof createTopicService>

/**
 * What the latest run on the topic changed, with the topic's display name and all its sources (the
 * pages its facts and the facts they replaced cite); undefined when the topic has no memory.
 */
async function getTopicDelta(
  context: MemoryContext,
  accountId: string,
  topic: string,
): Promise<{ topic: string; delta: TopicDelta; sources: Source[] } | undefined> {
  const memory = await loadTopicMemory(context, accountId, topic)
  const delta = memory && topicDelta(memory)
  return memory && delta ? { topic: memory.topic, delta, sources: memory.sources } : undefined
}

async function searchAccountMemory(
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
async function compareAccountTopics(
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
