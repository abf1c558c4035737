// Topic memory, as the surfaces (REST, MCP, the dashboard) ask for it: each call loads the account's
// live, readable memory and gives its view (server/topics/views.ts) for the audience: the pages, or
// a client reading away from them (MCP, the export), whose corpus sources are addressed by their
// pages on this server. Another account's topic is no topic.

import { inventedDocumentUrls } from '#server/repositories/corpus-documents.ts'
import type { RunMemory } from '#server/research/run-context.ts'
import { SAMPLE_SUBJECTS } from '#server/research/search-origin.ts'
import type {
  Audience,
  ComparisonView,
  DeltaView,
  SearchHitView,
  Source,
  TopicSummary,
  TopicView,
} from '#server/topics/contract.ts'
import { exportTopicMarkdown } from '#server/topics/export.ts'
import { topicDelta } from '#server/topics/insights.ts'
import { findLiveTopicId, purgeExpiredMemory } from '#server/topics/repository.ts'
import {
  checkTopicMemory,
  holdsMemoryKey,
  loadAccountMemories,
  loadTopicMemory,
  loadTopicMemoryById,
  type MemoryContext,
  saveTopicMemoryIn,
} from '#server/topics/store.ts'
import { comparisonView, deltaView, searchView, topicSummary, topicView, viewDelta } from '#server/topics/views.ts'

export type TopicServiceDeps = {
  memory: MemoryContext
  /** Where corpus sources are readable, for answers read away from the pages. */
  publicUrl: string
}

/** Who reads: the dashboard's pages, or a client away from them (MCP, an export), as for runs. */
export type TopicAudience = 'page' | 'client'
/** A topic by the name a user gives it (any spelling) or by its id (the dashboard's addresses). */
export type TopicRef = { topic: string } | { topicId: string }
/** A view with the notice said before it when some of its sources are the sample's invented articles. */
export type Shown<T> = { value: T; notice?: string }

/** What a run asks of its topic's memory: the engine's port RunMemory (decision 063). */
export function createTopicMemoryForRuns(context: MemoryContext): RunMemory {
  return {
    db: context.db,
    log: context.log,
    now: context.now,
    topicHash: (accountId, topic) => context.topicIndex.hash(accountId, topic),
    holdsKey: (keyId) => holdsMemoryKey(context, keyId),
    liveTopicId: (accountId, topicHash) => findLiveTopicId(context.db, accountId, topicHash, context.now()),
    load: (accountId, topic, read) => loadTopicMemory(context, accountId, topic, read),
    async saveIn(trx, accountId, topic, contribution) {
      await saveTopicMemoryIn(trx, context, accountId, topic, contribution)
    },
  }
}

export function createTopicService(deps: TopicServiceDeps) {
  const context = deps.memory
  const audienceOf = (audience: TopicAudience): Audience =>
    audience === 'page' ? { kind: 'page' } : { kind: 'client', publicUrl: deps.publicUrl }
  const find = (accountId: string, ref: TopicRef) =>
    'topicId' in ref
      ? loadTopicMemoryById(context, accountId, ref.topicId)
      : loadTopicMemory(context, accountId, ref.topic)
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
    /** The account's topic by name (any spelling) or id: its id and name; undefined for none (notify's FindTopic). */
    async find(accountId: string, ref: TopicRef): Promise<{ topicId: string; topic: string } | undefined> {
      const memory = await find(accountId, ref)
      return memory && { topicId: memory.topicId, topic: memory.topic }
    },
    /** The memory check of spec 2.4: counts, or null for no (live, readable) memory. */
    check: (accountId: string, topic: string) => checkTopicMemory(context, accountId, topic),
    /** What memory holds of the topic, for the audience; undefined without memory. */
    async view(accountId: string, ref: TopicRef, audience: TopicAudience): Promise<Shown<TopicView> | undefined> {
      const memory = await find(accountId, ref)
      return memory && { ...(await sampleNotice(memory.sources)), value: topicView(memory, audienceOf(audience)) }
    },
    /** What the latest run on the topic changed, with the topic's name; undefined without memory or a run. */
    async delta(
      accountId: string,
      ref: TopicRef,
      audience: TopicAudience,
    ): Promise<Shown<{ topic: string; delta: DeltaView }> | undefined> {
      const memory = await find(accountId, ref)
      const changed = memory && topicDelta(memory)
      if (!memory || !changed) return undefined
      // The notice looks sources up by the names memory holds, not by the addresses a view gives.
      const notice = await sampleNotice(changed.sources)
      return { ...notice, value: { topic: memory.topic, delta: viewDelta(memory, changed, audienceOf(audience)) } }
    },
    /**
     * The topic page: the topic's view, its latest run's delta, its hash (to find its runs) and the
     * notice, from one read of its memory.
     */
    async page(accountId: string, topicId: string) {
      const memory = await loadTopicMemoryById(context, accountId, topicId)
      if (!memory) return undefined
      const audience = audienceOf('page')
      return {
        ...(await sampleNotice(memory.sources)),
        topicHash: memory.topicHash,
        view: topicView(memory, audience),
        delta: deltaView(memory, audience) ?? null,
      }
    },
    /** Every live topic of the account, most recently researched first. */
    list: async (accountId: string): Promise<TopicSummary[]> =>
      (await loadAccountMemories(context, accountId)).map(topicSummary),
    /** The facts across the account's topics that best match the words. */
    search: async (
      accountId: string,
      query: string,
      options: { limit?: number },
      audience: TopicAudience,
    ): Promise<SearchHitView[]> =>
      searchView(await loadAccountMemories(context, accountId), query, options, audienceOf(audience)),
    /** Both topics' memory compared; `missing` names each topic without memory instead. */
    async compare<Ref extends TopicRef>(
      accountId: string,
      a: Ref,
      b: Ref,
      audience: TopicAudience,
    ): Promise<{ comparison: ComparisonView } | { missing: Ref[] }> {
      const [memoryA, memoryB] = await Promise.all([find(accountId, a), find(accountId, b)])
      if (!memoryA || !memoryB) return { missing: [memoryA ? undefined : a, memoryB ? undefined : b].filter(isRef) }
      return { comparison: comparisonView(memoryA, memoryB, audienceOf(audience)) }
    },
    /**
     * The topic as a markdown document, and its name for the file's; undefined without memory. Read
     * away from the pages wherever it is downloaded, so its corpus sources are their pages' addresses.
     */
    async export(accountId: string, ref: TopicRef): Promise<{ topic: string; markdown: string } | undefined> {
      const memory = await find(accountId, ref)
      return memory && { topic: memory.topic, markdown: exportTopicMarkdown(topicView(memory, audienceOf('client'))) }
    },
    /** The memory cron: deletes memory past its 30 days; how many topics went. */
    purgeExpired: () => purgeExpiredMemory(context.db, context.now()),
  }
}

export type TopicService = ReturnType<typeof createTopicService>

function isRef<Ref>(ref: Ref | undefined): ref is Ref {
  return ref !== undefined
}
