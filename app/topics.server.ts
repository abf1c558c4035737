// What the topic pages add to the topic views (server/topics/views.ts): a topic's page with its
// runs, search hits with their matched words marked, the search and comparison forms' rules, and
// the export's file name. The ledger's URLs stay on the server; pages get only its count.
import { z } from 'zod'
import type { RunListItem } from '#server/runs/contract.ts'
import type { Services } from '#server/services.ts'
import { UUID } from '#server/text/uuid.ts'
import { type DeltaView, RUN_HISTORY_CAP, type SearchHitView } from '#server/topics/contract.ts'
import type { Brief } from '#server/vocabulary/brief.ts'

export const TOPIC_NOT_FOUND = 'There is no topic memory at this address for your account. It may have expired.'

export type TopicRun = Pick<RunListItem, 'runId' | 'status' | 'currentStep' | 'createdAt' | 'depth'> & {
  counts: { newFacts: number; newSources: number; urlsRead: number } | null
}
export type TextPart = { text: string; match: boolean }

/**
 * The topic page: the topic's view newest first, what its latest run changed, its runs with what
 * each added, and the form's fields for researching it again.
 */
export async function loadTopicPage(services: Pick<Services, 'topics' | 'runs'>, accountId: string, topicId: string) {
  const found = await services.topics.page(accountId, topicId)
  if (!found) return undefined
  const { view } = found
  const { runs } = await services.runs.list(accountId, { limit: RUN_HISTORY_CAP, topicHash: found.topicHash })
  const records = new Map(view.runs.map((record) => [record.runId, record]))
  const latestBrief = runs[0] && (await services.runs.brief(accountId, runs[0].runId))
  return {
    summary: view.summary,
    // Said first when some sources are the sample's invented articles, as on a run's report.
    notice: found.notice ?? null,
    delta: found.delta && deltaOnPage(found.delta),
    // Memory keeps facts and sources in the order first seen; the page shows the newest first. What
    // memory holds true now, apart from the history of what later facts replaced.
    facts: view.facts.toReversed(),
    history: view.history.toReversed(),
    sources: view.sources.toReversed(),
    again: againBrief(view.summary.topic, latestBrief),
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
 * The latest run's delta as the page shows it: its facts counted (the page lists them in its new,
 * updated and contradicted groups), and its run linked when the id names one.
 */
function deltaOnPage({ facts, runId, ...delta }: DeltaView) {
  return { ...delta, runId: UUID.test(runId) ? runId : null, factCount: facts.length }
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

/** A search hit as the topics page shows it: the fact's text cut into parts, the matched words marked. */
export function markedHit(hit: SearchHitView) {
  return { ...hit, parts: markMatches(hit.fact.text, hit.matched) }
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
