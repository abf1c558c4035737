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
import { inventedDocumentUrls } from '#server/repositories/corpus-documents.ts'
import { purgeExpiredMemory } from '#server/repositories/topic-memory.ts'
import { SAMPLE_SUBJECTS } from '#server/research/search-origin.ts'
import { readableUrl } from '#server/text/corpus-url.ts'

export type TopicServiceDeps = {
  memory: MemoryContext
  /** Where corpus sources are readable, for exports read away from the pages. */
  publicUrl: string
}

export function createTopicService(deps: TopicServiceDeps) {
  const context = deps.memory
  /** Said first when some sources are the sample's invented articles: they are not the web. */
  async function sampleNotice(sources: readonly Pick<Source, 'url'>[]): Promise<{ notice?: string }> {
    const invented = await inventedDocumentUrls(
      context.db,
      sources.map((source) => source.url),
    )
    if (invented.size === 0) return {}
    const which =
      invented.size === sources.length ? 'All of these sources' : `${invented.size} of these ${sources.length} sources`
    return {
      notice: `${which} are invented articles of the sample corpus bundled with Sextant (on ${SAMPLE_SUBJECTS}; the companies, people and figures in them are made up), not pages of the web.`,
    }
  }
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
    /**
     * For answers read away from the pages (MCP): the memory with corpus documents by their pages on
     * this server, and a notice when some of its sources are invented sample articles.
     */
    async readable(accountId: string, topic: string): Promise<Readable<TopicMemory> | undefined> {
      const memory = await loadTopicMemory(context, accountId, topic)
      return memory && { ...(await sampleNotice(memory.sources)), value: readableMemory(memory, deps.publicUrl) }
    },
    /** The latest run's delta, as `readable` gives the memory. */
    async readableDelta(
      accountId: string,
      topic: string,
    ): Promise<Readable<{ topic: string; delta: TopicDelta; sources: Source[] }> | undefined> {
      const found = await getTopicDelta(context, accountId, topic)
      if (!found) return undefined
      const address = (url: string) => readableUrl(url, deps.publicUrl)
      const delta = found.delta
      return {
        ...(await sampleNotice(delta.sources)),
        value: {
          topic: found.topic,
          delta: {
            ...delta,
            newFacts: delta.newFacts.map((fact) => readableFact(fact, address)),
            updated: delta.updated.map((change) => readableChange(change, address)),
            contradicted: delta.contradicted.map((change) => readableChange(change, address)),
            facts: delta.facts.map((fact) => ({ ...fact, sourceUrls: fact.sourceUrls.map(address) })),
            sources: delta.sources.map((source) => ({ ...source, url: address(source.url) })),
          },
          sources: found.sources.map((source) => ({ ...source, url: address(source.url) })),
        },
      }
    },
    /** The topic page's notice when some of the memory's sources are invented sample articles. */
    notice: async (memory: TopicMemory) => (await sampleNotice(memory.sources)).notice,
    /** The memory cron: deletes memory past its 30 days; how many topics went. */
    purgeExpired: () => purgeExpiredMemory(context.db, context.now()),
  }
}

export type TopicService = ReturnType<typeof createTopicService>

/** A view for a surface away from the pages, with the notice said before it when there is one. */
export type Readable<T> = { value: T; notice?: string }

function readableFact<F extends { sourceUrls: string[] }>(fact: F, address: (url: string) => string): F {
  return { ...fact, sourceUrls: fact.sourceUrls.map(address) }
}

function readableChange<C extends { fact: { sourceUrls: string[] }; previous?: { sourceUrls: string[] } }>(
  change: C,
  address: (url: string) => string,
): C {
  return {
    ...change,
    fact: readableFact(change.fact, address),
    ...(change.previous ? { previous: readableFact(change.previous, address) } : {}),
  }
}

function readableMemory(memory: TopicMemory, publicUrl: string): TopicMemory {
  const address = (url: string) => readableUrl(url, publicUrl)
  return {
    ...memory,
    facts: memory.facts.map((fact) => readableFact(fact, address)),
    sources: memory.sources.map((source) => ({ ...source, url: address(source.url) })),
  }
}

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
