// The MCP tools for topic memory: what Sextant remembers about a topic, what its latest run changed,
// two topics compared, a keyword search across the caller's topics, and a topic as markdown. Each is
// one call to the topic service, which sees only the caller's live memory.
import { z } from 'zod'
import {
  CompareTopicsOutput,
  ExportTopicOutput,
  SearchMemoryOutput,
  type ToolOutput,
  TopicDeltaOutput,
  TopicMemoryOutput,
} from '#server/contracts/mcp.ts'
import { ok, problem, type ToolContext } from '#server/mcp/tool-context.ts'
import { quoted } from '#server/mcp/tool-text.ts'
import {
  deltaTitles,
  topicDeltaText,
  topicDeltaView,
  topicMemoryText,
  topicMemoryView,
} from '#server/mcp/topic-views.ts'
import { TopicSchema } from '#server/vocabulary/topic.ts'

const topicInput = {
  topic: TopicSchema.describe('The research topic, as given to research_brief (case and spacing do not matter).'),
}

/** The notice first: a model reading the answer must not take invented articles for the web. */
function withNotice<Output extends { notice: z.ZodOptional<z.ZodString> } & z.ZodRawShape>(
  output: Output,
  notice: string | undefined,
  view: Omit<ToolOutput<Output>, 'notice'>,
  text: string,
) {
  const structured = (notice ? { ...view, notice } : view) as ToolOutput<Output>
  return ok(output, structured, notice ? `Note: ${notice}\n\n${text}` : text)
}

function noMemory(topic: string) {
  return problem(`Sextant has no memory of ${quoted(topic)}. Run research_brief on it first.`)
}

export function registerTopicTools({ services, caller, registerTool }: ToolContext): void {
  const { topics } = services

  registerTool(
    'get_topic_memory',
    {
      title: 'Topic memory',
      description:
        'Everything Sextant remembers about a topic: counts; the facts it holds true now, each with the quote that supports it, its sources, when first seen and last confirmed; the history of facts later runs updated or contradicted; and the sources.',
      inputSchema: topicInput,
      outputSchema: TopicMemoryOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ topic }) => {
      const stored = await topics.view(caller.accountId, { topic }, 'client')
      if (!stored)
        return problem(
          `Sextant has no memory of ${quoted(topic)} (or it expired after 30 days). Run research_brief on it first.`,
        )
      const view = topicMemoryView(stored.value)
      return withNotice(TopicMemoryOutput, stored.notice, view, topicMemoryText(view))
    },
  )

  registerTool(
    'get_topic_delta',
    {
      title: 'What changed',
      description:
        'What the latest run on a topic changed in memory: its new facts, the facts it updated (another figure or date) and contradicted, each with its quote and the fact it replaced, how many facts it confirmed, and the sources it first read. The text lists every fact with numbered source URLs.',
      inputSchema: topicInput,
      outputSchema: TopicDeltaOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ topic }) => {
      const found = await topics.delta(caller.accountId, { topic }, 'client')
      if (!found) return noMemory(topic)
      const view = topicDeltaView(found.value.delta)
      return withNotice(
        TopicDeltaOutput,
        found.notice,
        view,
        topicDeltaText(found.value.topic, view, deltaTitles(found.value.delta)),
      )
    },
  )

  registerTool(
    'compare_topics',
    {
      title: 'Compare topics',
      description: 'Side by side: the facts and sources two topics share, and those unique to each.',
      inputSchema: {
        topicA: TopicSchema.describe('The first topic.'),
        topicB: TopicSchema.describe('The second topic.'),
      },
      outputSchema: CompareTopicsOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ topicA, topicB }) => {
      const result = await topics.compare(caller.accountId, { topic: topicA }, { topic: topicB }, 'client')
      if ('missing' in result) {
        const missing = result.missing.map((ref) => quoted(ref.topic))
        return problem(`No memory for ${missing.join(' and ')}. Run research_brief on it first.`)
      }
      const { comparison } = result
      return ok(CompareTopicsOutput, {
        topics: [comparison.a.topic, comparison.b.topic],
        summary: comparison.summary,
        sharedSources: comparison.sharedSources.map((source) => source.url),
        sharedFacts: comparison.sharedFacts.map((pair) => ({ a: pair.a.text, b: pair.b.text })),
        onlyA: comparison.onlyA.facts.map((fact) => fact.text),
        onlyB: comparison.onlyB.facts.map((fact) => fact.text),
      })
    },
  )

  registerTool(
    'search_memory',
    {
      title: 'Search memory',
      description: 'Keyword search across all your topics; returns the best matching facts with their topic.',
      inputSchema: {
        query: z.string().trim().min(1).max(500).describe('Words to look for.'),
        limit: z.number().int().min(1).max(100).default(20).describe('At most this many results.'),
      },
      outputSchema: SearchMemoryOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const hits = await topics.search(caller.accountId, query, { limit }, 'client')
      return ok(SearchMemoryOutput, {
        results: hits.map((hit) => ({
          topic: hit.topic,
          fact: hit.fact.text,
          sourceUrls: hit.fact.sourceUrls,
          score: Math.round(hit.score * 1000) / 1000,
        })),
      })
    },
  )

  registerTool(
    'export_topic',
    {
      title: 'Export topic',
      description: "A topic's knowledge as a markdown document: stats, facts with citations, sources, run history.",
      inputSchema: topicInput,
      outputSchema: ExportTopicOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ topic }) => {
      const file = await topics.export(caller.accountId, { topic })
      if (!file) return noMemory(topic)
      return ok(ExportTopicOutput, { topic, markdown: file.markdown }, file.markdown)
    },
  )
}
