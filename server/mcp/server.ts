// The MCP server: the nine tools of spec 4, for one caller. A new server is made per request
// (Streamable HTTP is stateless) or per SSE session, bound to the account that authenticated, so a
// tool can only ever see that account's runs and topics.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { type DemoVisitor, ensureDemoVisitorAccount } from '#server/auth/demo-visitors.ts'
import { ReportSchema } from '#server/contracts/report.ts'
import { RunStartSchema, RunStatusSchema, RunViewSchema } from '#server/contracts/run.ts'
import { isFinalEvent } from '#server/events/run-events.ts'
import { listFrameworks } from '#server/frameworks/index.ts'
import { FrameworkFilterSchema, FrameworkListSchema } from '#server/frameworks/types.ts'
import { quoted, sourcesText, withoutControls } from '#server/mcp/tool-text.ts'
import {
  TopicDeltaOutput,
  TopicMemoryOutput,
  topicDeltaText,
  topicDeltaView,
  topicMemoryText,
  topicMemoryView,
} from '#server/mcp/topic-views.ts'
import { loadTopicMemory } from '#server/memory/store.ts'
import { TopicSchema } from '#server/memory/topic-schema.ts'
import { type Requester, startAdmittedRun } from '#server/research/admission.ts'
import { ClientBriefSchema } from '#server/research/brief.ts'
import { getRun, viewRun } from '#server/research/runs.ts'
import { RunNotQueuedError, type RunStart } from '#server/research/start-run.ts'

export type McpCaller = {
  accountId: string
  /** Who starts runs, for admission (limits, recurring allowed). */
  requester: Requester
  /** With the demo key: the visitor's account, written when its first run starts. */
  visitor?: DemoVisitor
}

const VERSION = '0.1.0'
const MAX_WAIT_MS = 50_000 // below the ~60 s at which MCP clients give up on a tool call
const TOTAL_PROGRESS = 5 // the five steps of a run

function ok(structured: Record<string, unknown>, text?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: text ?? JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  }
}

/** An expected failure the model can act on: not a protocol error. */
function problem(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

const runIdInput = { runId: z.string().describe('The runId research_brief returned.') }
const topicInput = {
  topic: TopicSchema.describe('The research topic, as given to research_brief (case and spacing do not matter).'),
}

// The output schemas are the REST API's view schemas (server/contracts), or parts of them.
const RunStatusOutput = RunViewSchema.pick({
  runId: true,
  topic: true,
  status: true,
  currentStep: true,
  createdAt: true,
  finishedAt: true,
  error: true,
})
const RunStartOutput = RunStartSchema.extend({
  status: RunStatusSchema,
  currentStep: RunViewSchema.shape.currentStep.optional(),
})
const RunReportOutput = ReportSchema.pick({
  summary: true,
  delta: true,
  sources: true,
  integrity: true,
  generatedWith: true,
  notice: true,
}).extend({ runId: RunViewSchema.shape.runId, topic: RunViewSchema.shape.topic })

export function createMcpServer(services: AppServices, caller: McpCaller): McpServer {
  const server = new McpServer({ name: 'sextant', version: VERSION }, { capabilities: { logging: {} } })
  const { db, memory } = services

  // The SDK hands a thrown error's message to the client as the tool's answer; an unexpected one
  // (a database error, say) would leak our internals. It is logged and answered in general terms.
  const registerTool = ((name, config, handler) =>
    server.registerTool(name, config, (async (...args: unknown[]) => {
      try {
        return await (handler as (...args: unknown[]) => unknown)(...args)
      } catch (error) {
        if (error instanceof McpError) throw error
        services.log.error({ err: error, tool: name, accountId: caller.accountId }, 'MCP tool failed')
        return problem(`Sextant could not complete ${name} because of a server error. Try again in a moment.`)
      }
    }) as typeof handler)) as typeof server.registerTool

  async function ownRun(runId: string) {
    const row = await getRun(db, runId, caller.accountId)
    return row ? viewRun(memory.ring, row, { publicUrl: services.config.PUBLIC_URL }) : undefined
  }
  const noRun = (runId: string) =>
    problem(
      `There is no run ${quoted(runId)} for this API key. Start one with research_brief, or list runs in the dashboard.`,
    )
  const status = (run: NonNullable<Awaited<ReturnType<typeof ownRun>>>) => ({
    runId: run.runId,
    topic: run.topic,
    status: run.status,
    currentStep: run.currentStep,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    ...(run.error ? { error: run.error } : {}),
  })

  registerTool(
    'research_brief',
    {
      title: 'Start research',
      description:
        'Starts a durable web research run on a topic and returns its runId at once; the run keeps going on the server. ' +
        'Poll get_run_status until status is complete, then read get_run_report. With wait: true and a progress token, ' +
        'progress is streamed and the call returns when the run ends or after about 50 s, whichever is first. ' +
        'Later runs on the same topic skip pages already read and report what changed. ' +
        'maxTokens and maxCostDollars cap what the run may spend; a run that reaches its budget stops spending ' +
        'and reports with what it has, saying so.',
      inputSchema: {
        ...ClientBriefSchema.shape,
        source: ClientBriefSchema.shape.source.default('mcp'),
        wait: z
          .boolean()
          .default(false)
          .describe('Stream progress (needs a progress token) and return when done, up to ~50 s.'),
      },
      outputSchema: RunStartOutput,
    },
    async ({ wait, ...input }, extra) => {
      const parsed = ClientBriefSchema.safeParse(input)
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'brief'}: ${issue.message}`)
        return problem(`The brief is not valid: ${withoutControls(issues.join('; '))}`)
      }
      const { visitor } = caller
      let started: RunStart
      try {
        const outcome = await startAdmittedRun(
          { db, jobs: services.jobs, memory, deadlines: services.deadlines, limits: services.limits },
          {
            requester: caller.requester,
            brief: parsed.data,
            accountId: visitor
              ? async () => {
                  await ensureDemoVisitorAccount(db, visitor)
                  return visitor.accountId
                }
              : caller.accountId,
          },
        )
        if (!outcome.ok) return problem(outcome.refusal.message)
        started = outcome.run
      } catch (error) {
        if (!(error instanceof RunNotQueuedError)) throw error
        services.log.error({ err: error }, 'a run could not be queued')
        return problem(
          `The run could not be queued, so none was started. Try again in ${error.retryAfterSeconds} seconds.`,
        )
      }
      const progressToken = extra._meta?.progressToken
      if (!wait || progressToken === undefined) return ok(started)

      // Stream the run's steps as progress notifications until it ends or the wait runs out.
      let done = 0
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, MAX_WAIT_MS)
        const unsubscribe = services.events.subscribe(started.runId, (event) => {
          if (event.type === 'step_finished') done += 1
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress: done,
                total: TOTAL_PROGRESS,
                message: `${event.type}${event.step ? ` ${event.step}` : ''}`,
              },
            })
            .catch(() => {})
          if (isFinalEvent(event.type)) finish()
        })
        extra.signal.addEventListener('abort', finish)
        function finish() {
          clearTimeout(timer)
          unsubscribe()
          resolve()
        }
      })
      const run = await ownRun(started.runId)
      return ok({ ...started, status: run?.status ?? 'running', currentStep: run?.currentStep ?? null })
    },
  )

  registerTool(
    'get_run_status',
    {
      title: 'Run status',
      description: "A run's status (running, complete, failed, cancelled) and the step it is on.",
      inputSchema: runIdInput,
      outputSchema: RunStatusOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId }) => {
      const run = await ownRun(runId)
      return run ? ok(status(run)) : noRun(runId)
    },
  )

  registerTool(
    'get_run_report',
    {
      title: 'Run report',
      description:
        'The report of a complete run: summary (markdown with [n] citations, led by what changed), delta (new, updated and contradicted claims with their quotes; confirmed counted), sources and integrity (claims not shown because their quote is on no page).',
      inputSchema: runIdInput,
      outputSchema: RunReportOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId }) => {
      const run = await ownRun(runId)
      if (!run) return noRun(runId)
      if (run.status !== 'complete' || !run.report) {
        const detail =
          run.status === 'running'
            ? `still running (step ${run.currentStep ?? 'starting'}); call get_run_status until it is complete`
            : `${run.status}${run.error ? `: ${run.error.message}` : ''}; start a new run with research_brief`
        return problem(`The run has no report yet: it is ${detail}.`)
      }
      const { summary, delta, sources, integrity, generatedWith, notice } = run.report
      return ok(
        { runId, topic: run.topic, summary, delta, sources, integrity, generatedWith, ...(notice ? { notice } : {}) },
        // The notice first: a model reading the answer must not take invented articles for the web.
        `${notice ? `Note: ${notice}\n\n` : ''}${summary}\n\n${delta.summary}\n\n${sourcesText(sources)}`,
      )
    },
  )

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
      const stored = await loadTopicMemory(memory, caller.accountId, topic)
      if (!stored)
        return problem(
          `Sextant has no memory of ${quoted(topic)} (or it expired after 30 days). Run research_brief on it first.`,
        )
      const view = topicMemoryView(stored)
      return ok(view, topicMemoryText(view))
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
      const found = await services.topics.delta(caller.accountId, topic)
      if (!found) return problem(`Sextant has no memory of ${quoted(topic)}. Run research_brief on it first.`)
      const view = topicDeltaView(found.delta)
      return ok(view, topicDeltaText(found.topic, view, found.sources))
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
      outputSchema: {
        topics: z.array(z.string()),
        summary: z.record(z.string(), z.number()),
        sharedSources: z.array(z.string()),
        sharedFacts: z.array(z.object({ a: z.string(), b: z.string() })),
        onlyA: z.array(z.string()),
        onlyB: z.array(z.string()),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ topicA, topicB }) => {
      const result = await services.topics.compare(caller.accountId, topicA, topicB)
      if ('missing' in result)
        return problem(`No memory for ${result.missing.map(quoted).join(' and ')}. Run research_brief on it first.`)
      const { comparison } = result
      return ok({
        topics: comparison.topics,
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
      outputSchema: {
        results: z.array(
          z.object({ topic: z.string(), fact: z.string(), sourceUrls: z.array(z.string()), score: z.number() }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const hits = await services.topics.search(caller.accountId, query, { limit })
      return ok({
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
    'list_frameworks',
    {
      title: 'Research frameworks',
      description:
        'The research frameworks (analysis lenses) a brief can apply with frameworkId, optionally with reportStyle "framework": ' +
        'what each is for, the questions it asks and the report sections it produces.',
      inputSchema: FrameworkFilterSchema.shape,
      outputSchema: FrameworkListSchema.shape,
      annotations: { readOnlyHint: true },
    },
    async (filter) => ok(listFrameworks(filter)),
  )

  registerTool(
    'export_topic',
    {
      title: 'Export topic',
      description: "A topic's knowledge as a markdown document: stats, facts with citations, sources, run history.",
      inputSchema: topicInput,
      outputSchema: { topic: z.string(), markdown: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ topic }) => {
      const markdown = await services.topics.export(caller.accountId, topic)
      if (!markdown) return problem(`Sextant has no memory of ${quoted(topic)}. Run research_brief on it first.`)
      return ok({ topic, markdown }, markdown)
    },
  )

  return server
}
