// What the topic pages show of an account's decrypted memory, as plain data for the components:
// summaries, one topic with its runs, search hits with their matched words marked, comparisons.
// The ledger's URLs stay on the server; pages get only its count.
import { z } from 'zod'
import type { RunListItem } from '#server/contracts/run.ts'
import { compareTopics, currentFacts, predecessorOf, supersededFacts, topicDelta } from '#server/memory/insights.ts'
import { searchMemory } from '#server/memory/search.ts'
import {
  type Fact,
  type FactChange,
  type FirstSeen,
  RUN_HISTORY_CAP,
  type Source,
  type TopicMemory,
} from '#server/memory/types.ts'
import type { Services } from '#server/services.ts'
import { UUID } from '#server/text/uuid.ts'
import type { Brief } from '#server/vocabulary/brief.ts'

export const TOPIC_NOT_FOUND = 'There is no topic memory at this address for your account. It may have expired.'

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
/** A run's id only when it can be linked to (memory written by hand or by tests may hold others). */
export type FirstSeenView = { runId: string | null; at: string }
export type SourceView = { url: string; label: string; publishedDate: string | null; firstSeen: FirstSeenView }
/** A fact as the topic pages show it: a claim with its quote, its sources, when first and last seen. */
export type PreviousFactView = {
  id: string
  text: string
  /** The words of a source that support it; '' for facts stored before quotes were kept. */
  quote: string
  sources: SourceView[]
  firstSeen: FirstSeenView
  lastConfirmed: string
}
export type FactView = PreviousFactView & {
  /** What this fact replaced: how, and the fact memory held (null when it has since left memory). */
  replaced: { change: FactChange; previous: PreviousFactView | null } | null
}
/** A fact a later one replaced: history, shown apart from what memory holds true now. */
export type HistoryFactView = PreviousFactView & { replacedBy: { change: FactChange; text: string; at: string } | null }
export type TopicRun = Pick<RunListItem, 'runId' | 'status' | 'currentStep' | 'createdAt' | 'depth'> & {
  counts: { newFacts: number; newSources: number; urlsRead: number } | null
}
export type TextPart = { text: string; match: boolean }
export type SearchHitView = {
  topicId: string
  topic: string
  fact: FactView
  parts: TextPart[]
  matched: string[]
}

export function summarizeTopic(memory: TopicMemory): TopicSummary {
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

function firstSeenView(firstSeen: FirstSeen): FirstSeenView {
  return { runId: UUID.test(firstSeen.runId) ? firstSeen.runId : null, at: firstSeen.at }
}

function sourceView(source: Source): SourceView {
  return {
    url: source.url,
    label: source.title || source.url,
    publishedDate: source.publishedDate,
    firstSeen: firstSeenView(source.firstSeen),
  }
}

/**
 * Facts with their sources resolved to titles (a cited URL missing from the sources shows as itself),
 * and, given the fact each replaced, what that was.
 */
function factViews(
  facts: readonly Fact[],
  sources: readonly Source[],
  predecessor: (fact: Fact) => Fact | undefined = () => undefined,
): FactView[] {
  const view = plainFactView(sources)
  return facts.map((fact) => {
    const previous = predecessor(fact)
    return {
      ...view(fact),
      replaced: fact.supersedes ? { change: fact.supersedes.change, previous: previous ? view(previous) : null } : null,
    }
  })
}

function plainFactView(sources: readonly Source[]): (fact: Fact) => PreviousFactView {
  const byUrl = new Map(sources.map((source) => [source.url, sourceView(source)]))
  return (fact) => ({
    id: fact.id,
    text: fact.text,
    quote: fact.quote,
    firstSeen: firstSeenView(fact.firstSeen),
    lastConfirmed: fact.lastConfirmed,
    sources: fact.sourceUrls.map(
      (url) => byUrl.get(url) ?? { url, label: url, publishedDate: null, firstSeen: firstSeenView(fact.firstSeen) },
    ),
  })
}

/** The facts later ones replaced, newest first, each with what replaced it. */
function historyViews(facts: readonly Fact[], sources: readonly Source[]): HistoryFactView[] {
  const byId = new Map(facts.map((fact) => [fact.id, fact]))
  const view = plainFactView(sources)
  return supersededFacts(facts)
    .map((fact) => {
      const successor = fact.supersededBy ? byId.get(fact.supersededBy) : undefined
      return {
        ...view(fact),
        replacedBy: successor?.supersedes
          ? { change: successor.supersedes.change, text: successor.text, at: successor.firstSeen.at }
          : null,
      }
    })
    .reverse()
}

export async function loadTopicPage(services: Pick<Services, 'topics' | 'runs'>, accountId: string, topicId: string) {
  const memory = await services.topics.loadById(accountId, topicId)
  if (!memory) return undefined
  const { runs } = await services.runs.list(accountId, { limit: RUN_HISTORY_CAP, topicHash: memory.topicHash })
  const records = new Map(memory.runs.map((record) => [record.runId, record]))
  const delta = topicDelta(memory)
  const latestBrief = runs[0] && (await services.runs.brief(accountId, runs[0].runId))
  const predecessor = predecessorOf(memory.facts)
  const views = (facts: readonly Fact[]) => factViews(facts, memory.sources, predecessor)
  return {
    summary: summarizeTopic(memory),
    // Said first when some sources are the sample's invented articles, as on a run's report.
    notice: (await services.topics.notice(memory)) ?? null,
    delta: delta
      ? {
          runId: UUID.test(delta.runId) ? delta.runId : null,
          at: delta.at,
          factCount: delta.facts.length,
          newFacts: views(delta.newFacts),
          updated: views(delta.updated.map(({ fact }) => fact)),
          contradicted: views(delta.contradicted.map(({ fact }) => fact)),
          confirmed: delta.confirmed,
          sources: delta.sources.map(sourceView),
        }
      : null,
    // Memory keeps facts and sources in the order first seen; the page shows the newest first. What
    // memory holds true now, apart from the history of what later facts replaced.
    facts: views(currentFacts(memory.facts)).reverse(),
    history: historyViews(memory.facts, memory.sources),
    sources: memory.sources.map(sourceView).reverse(),
    again: againBrief(memory.topic, latestBrief),
    runs: runs.map((run): TopicRun => {
      const record = records.get(run.runId)
      return {
        runId: run.runId,
        status: run.status,
        currentStep: run.currentStep,
        createdAt: run.createdAt,
        depth: run.depth,
        counts: record ? { newFacts: record.newFacts, newSources: record.newSources, urlsRead: record.urlsRead } : null,
      }
    }),
  }
}

/**
 * The dashboard form's fields for researching the topic again: the latest run's brief, its budget
 * too, once rather than recurring, so the new run covers the same ground and its findings land in
 * this memory.
 */
function againBrief(topic: string, brief: Brief | undefined): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    topic,
    objective: brief?.objective,
    focus: brief?.focus,
    depth: brief?.depth,
    timeframe: brief?.timeframe,
    reportStyle: brief?.reportStyle,
    frameworkId: brief?.frameworkId,
    maxTokens: brief?.maxTokens?.toString(),
    maxCostDollars: brief?.maxCostDollars?.toString(),
  }
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => Boolean(entry[1])))
}

const SEARCH_MAX_LENGTH = 200
export const SearchQuerySchema = z
  .string()
  .trim()
  .max(SEARCH_MAX_LENGTH, `Keep the search to ${SEARCH_MAX_LENGTH} characters or fewer.`)

export function searchTopics(memories: readonly TopicMemory[], query: string): SearchHitView[] {
  const topics = memories.map((memory) => ({ topicId: memory.topicId, topic: memory.topic, content: memory }))
  const sourcesOf = new Map(memories.map((memory) => [memory.topicId, memory.sources]))
  return searchMemory(topics, query, { limit: 20 }).map((hit) => {
    const [fact] = factViews([hit.fact], sourcesOf.get(hit.topicId) ?? [])
    return {
      topicId: hit.topicId,
      topic: hit.topic,
      fact: fact as FactView,
      parts: markMatches(hit.fact.text, hit.matched),
      matched: hit.matched,
    }
  })
}

// The same segmentation as the search's tokenizer (search.ts), so the words marked are the words matched.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' })

/** The text cut into runs, with each word the search matched as its own part. */
export function markMatches(text: string, matched: readonly string[]): TextPart[] {
  const terms = new Set(matched)
  const parts: TextPart[] = []
  for (const { segment, isWordLike } of wordSegmenter.segment(text)) {
    const match = Boolean(isWordLike) && terms.has(segment.normalize('NFKC').toLowerCase())
    const last = parts.at(-1)
    if (last && !last.match && !match) last.text += segment
    else parts.push({ text: segment, match })
  }
  return parts
}

const TopicIdSchema = z
  .string()
  .min(1, 'Choose two topics to compare.')
  .regex(UUID, 'Choose both topics from the lists.')
export const CompareSchema = z
  .object({ a: TopicIdSchema, b: TopicIdSchema })
  .refine(({ a, b }) => a.toLowerCase() !== b.toLowerCase(), 'Choose two different topics.')

export function compareTopicMemories(a: TopicMemory, b: TopicMemory) {
  const comparison = compareTopics({ topic: a.topic, content: a }, { topic: b.topic, content: b })
  const urlsA = new Set(a.sources.map((source) => source.url))
  const sources = [...a.sources, ...b.sources.filter((source) => !urlsA.has(source.url))]
  const views = (facts: Fact[]) => factViews(facts, sources)
  return {
    a: summarizeTopic(a),
    b: summarizeTopic(b),
    summary: comparison.summary,
    sharedFacts: comparison.sharedFacts.map((pair) => {
      const [a, b] = views([pair.a, pair.b]) as [FactView, FactView]
      return { a, b, sameText: pair.a.id === pair.b.id }
    }),
    sharedSources: comparison.sharedSources.map(sourceView),
    onlyA: { facts: views(comparison.onlyA.facts), sources: comparison.onlyA.sources.map(sourceView) },
    onlyB: { facts: views(comparison.onlyB.facts), sources: comparison.onlyB.sources.map(sourceView) },
  }
}

export type TopicComparisonView = ReturnType<typeof compareTopicMemories>

/**
 * The download's file name: an ASCII slug for `filename`, and the topic's own letters for
 * `filename*` when it has others (a Japanese topic would otherwise be just "topic.md").
 */
export function exportDisposition(topic: string): string {
  const ascii = slug(topic.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase(), /[^a-z0-9]+/g) || 'topic'
  const unicode = slug(topic.normalize('NFC').toLowerCase(), /[^\p{L}\p{N}]+/gu)
  const extended = unicode && unicode !== ascii ? `; filename*=UTF-8''${encodeURIComponent(`${unicode}.md`)}` : ''
  return `attachment; filename="${ascii}.md"${extended}`
}

function slug(text: string, separators: RegExp): string {
  return [...text.replace(separators, '-').replace(/^-+|-+$/g, '')].slice(0, 80).join('').replace(/-+$/, '')
}
