// One research run: load_memory -> plan -> search -> synthesize -> save_memory. Each step's output
// is sealed into the run's checkpoint before the next starts, so a retried job (a worker died, a
// deploy) resumes at the first unfinished step and never repeats a paid call it has the result of.
import { appendRunEvent } from '#server/events/run-events.ts'
import { findFramework } from '#server/frameworks/index.ts'
import type { Logger } from '#server/logger.ts'
import { canonicalUrl } from '#server/memory/canonical-url.ts'
import { loadTopicMemory, type MemoryContext, MemoryUnreadableError, saveTopicMemory } from '#server/memory/store.ts'
import type { ContributedFact, MemoryContribution } from '#server/memory/types.ts'
import { createExtractiveModel } from '#server/providers/llm/extractive.ts'
import { PLAN_MAX_OUTPUT_TOKENS, SYNTHESIS_MAX_OUTPUT_TOKENS } from '#server/providers/llm/output-limits.ts'
import {
  type LanguageModel,
  type PlanInput,
  ProviderError,
  type SearchProvider,
  type SearchResult,
  type Usage,
  usageOf,
} from '#server/providers/types.ts'
import { type Brief, focusAreas, startPublishedDate, timeframePhrase } from '#server/research/brief.ts'
import { type Budget, readableCharacters, searchAllowed, spentOf, tokensLeft } from '#server/research/budget.ts'
import { classifyRunClaims } from '#server/research/delta.ts'
import { type MemoryDigest, memoryDigest } from '#server/research/digest.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { restatedOnly } from '#server/research/novelty.ts'
import { PASSAGE_GAP, readPassages } from '#server/research/passages.ts'
import { buildReport } from '#server/research/report.ts'
import type { Report } from '#server/research/report-types.ts'
import type { RunOutcome } from '#server/research/run-end.ts'
import {
  getRun,
  openRunBrief,
  type RunError,
  readCheckpoint,
  startStep,
  writeCheckpoint,
} from '#server/research/runs.ts'

export const STEPS = ['load_memory', 'plan', 'search', 'synthesize', 'save_memory'] as const
export type Step = (typeof STEPS)[number]

export type EngineDeps = {
  memory: MemoryContext
  search: SearchProvider
  model: LanguageModel
  log: Logger
  providerTimeoutMs: number
  /**
   * The server's default token budget for a run (RUN_MAX_TOKENS), for briefs that set no `maxTokens`:
   * model tokens, prompt and completion, for the whole run. Unset, such a run has no token limit.
   */
  maxTokens?: number
  /**
   * What the model charges in dollars per million tokens (OPENAI_*_DOLLARS_PER_MILLION), so model
   * tokens count against a brief's `maxCostDollars`; unset, only search dollars count.
   */
  prices?: { inputPerMillion: number; outputPerMillion: number }
  /** Ends the run (see run-end.ts); false when something else ended it first. */
  endRun: (runId: string, outcome: RunOutcome) => Promise<boolean>
}

type Checkpoint = {
  load_memory?: {
    baseline: boolean
    since: string | null
    ledger: string[]
    /** For the plan: what memory holds that matters to the brief, bounded (server/research/digest.ts). */
    digest?: MemoryDigest
    /** The last run's open questions, and the queries of recent runs: the thread a re-run carries on. */
    openQuestions?: string[]
    pastQueries?: string[]
    /** Checkpoints written before the digest carry every fact instead. */
    knownFacts?: string[]
  }
  plan?: { queries: string[]; fallback: boolean; usage: Usage; leftOut?: string[] }
  search?: {
    /** With the query that found each: passages are ranked against it. */
    sources: Array<SearchResult & { query?: string }>
    /** Every query searched, round one's and the follow-up's. */
    queries?: string[]
    searchCalls: number
    costDollars: number
    removedByLedger: number
    usage: Usage
    /** What the budget left out of this step. */
    leftOut?: string[]
  }
  synthesize?: {
    report: Report
    headline: string
    facts: ContributedFact[]
    vectors?: MemoryContribution['vectors']
    /** What the sources left open: the next run starts from these. */
    openQuestions?: string[]
  }
  save_memory?: { saved: boolean }
}

// maxCharacters: what a search returns of a page; passageCharacters: what the model reads of it, its
// passages that matter most to the brief (server/research/passages.ts); contextCeiling: the most a
// run's pages give together (about 6,000 and 30,000 tokens), for a run that finds very many.
export const DEPTH = {
  quick: {
    queries: 3,
    followUpQueries: 0,
    resultsPerQuery: 5,
    maxCharacters: 3000,
    passageCharacters: 1200,
    contextCeiling: 24_000,
  },
  deep: {
    queries: 6,
    followUpQueries: 3,
    resultsPerQuery: 8,
    maxCharacters: 6000,
    passageCharacters: 3000,
    contextCeiling: 120_000,
  },
} as const

export const SEARCH_CONCURRENCY = 3
/** The plan's share of memory: it needs less than the synthesis, which checks what is new. */
const PLAN_DIGEST_CHARACTERS = 3000
/** Queries of this many recent runs are shown to the plan, to vary its angles. */
const PAST_QUERY_RUNS = 3
/** A re-run's first round that finds less than this share of pages new skips the follow-up round. */
const LITTLE_NEW_SHARE = 0.2
/** Restated claims confirmed when a run's pages only repeat memory. */
const MAX_RESTATED = 50
/** The follow-up plan reads this many of round one's pages, this much of each. */
const FOLLOW_UP_PAGES = 24
const FOLLOW_UP_PASSAGE_CHARACTERS = 300
/** What a plan call needs of the budget: its answer and its prompt. */
const PLAN_TOKENS = PLAN_MAX_OUTPUT_TOKENS + 1500
const FOLLOW_UP_TOKENS = PLAN_TOKENS + 1000
/** A synthesis prompt besides the pages: instructions, the brief, memory's digest. */
const SYNTHESIS_FIXED_TOKENS = 2500
/** Less than this of pages is not worth a model's report: the extractive one is written instead. */
const MIN_AFFORDABLE_CHARACTERS = 1200
/** What the claim judge needs of the budget to be asked at all. */
const JUDGE_TOKENS = 1500
/** A re-run searches from the last run's date less this many days. */
const RE_RUN_OVERLAP_DAYS = 2

/** Writes the report when the model cannot, from the pages the run paid to read. */
const EXTRACTIVE = createExtractiveModel()

/** Why a run stopped early, in words a user can act on. */
class RunFailure extends Error {
  readonly runError: RunError
  constructor(code: string, message: string) {
    super(message)
    this.runError = { code, message }
  }
}

class RunCancelled extends Error {}

/** Runs (or resumes) a run to its end. Throws only for infrastructure failures, so the job retries. */
export async function runResearch(deps: EngineDeps, runId: string): Promise<void> {
  const { db, ring } = deps.memory
  const row = await getRun(db, runId)
  if (row?.status !== 'running') return // finished, cancelled or gone: nothing to do
  const brief = openRunBrief(ring, row)
  const remainingMs = row.deadline_at.getTime() - Date.now()
  const event = (
    type: Parameters<typeof appendRunEvent>[2]['type'],
    step: Step | null,
    data?: Record<string, unknown>,
  ) => appendRunEvent(db, ring, { runId, type, step, data })

  if (remainingMs <= 0) {
    await deps.endRun(runId, { status: 'failed', error: deadlineError(brief) })
    return
  }
  const deadline = new AbortController()
  const timer = setTimeout(
    () => deadline.abort(new RunFailure(deadlineError(brief).code, deadlineError(brief).message)),
    remainingMs,
  )
  const checkpoint: Checkpoint = readCheckpoint<Checkpoint>(ring, row) ?? {}
  try {
    for (const step of STEPS) {
      if (checkpoint[step]) continue
      if (!(await startStep(db, runId, step))) throw new RunCancelled()
      await event('step_started', step)
      const started = Date.now()
      const context = { deps, runId, accountId: row.account_id, brief, checkpoint, signal: deadline.signal, event }
      Object.assign(checkpoint, { [step]: await STEP_RUNNERS[step](context) })
      await writeCheckpoint(db, ring, runId, checkpoint)
      await event('step_finished', step, { ms: Date.now() - started })
    }
    await deps.endRun(runId, { status: 'complete', report: checkpoint.synthesize?.report as Report })
  } catch (error) {
    const reason = deadline.signal.aborted ? deadline.signal.reason : error
    if (reason instanceof RunCancelled) return
    const runError = toRunError(reason)
    if (!runError) throw error // infrastructure: let the job retry and resume from the checkpoint
    deps.log.warn({ runId, error: runError }, 'run failed')
    await deps.endRun(runId, { status: 'failed', error: runError })
  } finally {
    clearTimeout(timer)
  }
}

function deadlineError(brief: Brief): RunError {
  return {
    code: 'deadline_exceeded',
    message: `The ${brief.depth} run did not finish within its time limit. The providers may be slow or down; try again, or use depth "quick".`,
  }
}

function toRunError(error: unknown): RunError | undefined {
  if (error instanceof RunFailure) return error.runError
  if (error instanceof ProviderError) {
    return {
      code: `${error.provider.replace(/\W+/g, '_')}_unavailable`,
      message: `${error.provider}: ${error.message}`,
    }
  }
  return undefined
}

type StepContext = {
  deps: EngineDeps
  runId: string
  accountId: string
  brief: Brief
  checkpoint: Checkpoint
  signal: AbortSignal
  event: (type: 'query_done' | 'warning', step: Step, data: Record<string, unknown>) => Promise<unknown>
}

const STEP_RUNNERS: { [S in Step]: (context: StepContext) => Promise<NonNullable<Checkpoint[S]>> } = {
  async load_memory({ deps, accountId, brief }) {
    const memory = await loadTopicMemory(deps.memory, accountId, brief.topic)
    const runs = memory?.runs ?? []
    return {
      baseline: !memory,
      since: memory?.lastRunAt.toISOString() ?? null,
      ledger: memory?.ledger.map((entry) => entry.url) ?? [],
      digest: memoryDigest(memory, briefText(brief), PLAN_DIGEST_CHARACTERS),
      openQuestions: runs[0]?.openQuestions ?? [],
      pastQueries: [...new Set(runs.slice(0, PAST_QUERY_RUNS).flatMap((run) => run.queries ?? []))],
    }
  },

  async plan({ deps, brief, checkpoint, signal, event }) {
    const input = planInput(brief, checkpoint, DEPTH[brief.depth].queries)
    if (tokensLeft(budgetOf(brief, deps), spentOf([], 0)) < PLAN_TOKENS) {
      await budgetWarning(event, 'plan', brief, deps, ["the model's plan"])
      const usage = { inputTokens: 0, outputTokens: 0 }
      return { queries: fallbackPlan(input).queries, fallback: true, usage, leftOut: ["the model's plan"] }
    }
    try {
      const { plan, usage } = await deps.model.plan(input, { signal })
      // Without a language model the plan is the fallback plan, and the report says so.
      return { queries: plan.queries, fallback: deps.model.kind === 'extractive', usage }
    } catch (error) {
      signal.throwIfAborted()
      // Spec 7.3: an unusable plan is not fatal; a deterministic plan from the brief takes over.
      await event('warning', 'plan', {
        code: 'fallback_plan',
        message: `Used the fallback plan: ${(error as Error).message}`,
      })
      return { queries: fallbackPlan(input).queries, fallback: true, usage: usageOf(error) }
    }
  },

  async search({ deps, brief, checkpoint, signal, event }) {
    const depth = DEPTH[brief.depth]
    const ledger = new Set(checkpoint.load_memory?.ledger)
    const found = new Map<string, SearchResult & { query: string }>()
    let searchCalls = 0
    let costDollars = 0
    let failures = 0
    let removedByLedger = 0
    let lastFailure: unknown

    const searched: string[] = []
    const budget = budgetOf(brief, deps)
    const planUsage = checkpoint.plan?.usage ?? { inputTokens: 0, outputTokens: 0 }
    const leftOut: string[] = []
    async function runQueries(queries: string[]) {
      await mapWithConcurrency(queries, SEARCH_CONCURRENCY, async (query) => {
        // A search the dollar budget cannot pay for is not made; the run goes on with what it found.
        if (!searchAllowed(budget, spentOf([planUsage, usage], costDollars))) {
          if (!leftOut.includes('some searches')) leftOut.push('some searches')
          return
        }
        searched.push(query)
        searchCalls += 1
        try {
          const response = await deps.search.search(
            {
              text: query,
              startPublishedDate: searchFrom(brief, checkpoint.load_memory?.since ?? null, new Date()),
              numResults: depth.resultsPerQuery,
              maxCharacters: depth.maxCharacters,
            },
            { signal },
          )
          costDollars += response.costDollars ?? 0
          let fresh = 0
          for (const result of response.results) {
            const url = canonicalUrl(result.url)
            if (!url) continue
            // Spec 2.4 rule 2: what memory has read is not read again.
            if (ledger.has(url)) {
              removedByLedger += 1
              continue
            }
            if (!found.has(url)) fresh += 1
            found.set(url, { ...result, url, query })
          }
          await event('query_done', 'search', { query, results: response.results.length, new: fresh })
        } catch (error) {
          signal.throwIfAborted()
          failures += 1
          lastFailure = error
          await event('warning', 'search', { code: 'query_failed', query, message: (error as Error).message })
        }
      })
    }

    const queries = checkpoint.plan?.queries ?? []
    let usage: Usage = { inputTokens: 0, outputTokens: 0 }
    await runQueries(queries)
    const roundOne = { new: found.size, known: removedByLedger }
    if (failures === searchCalls && searchCalls > 0) {
      throw lastFailure instanceof ProviderError
        ? lastFailure
        : new RunFailure('search_unavailable', `Every search failed: ${(lastFailure as Error)?.message}`)
    }
    // A deep run gets one follow-up round on what the first round left open, unless the first round
    // found mostly what memory has read: then the topic has not moved, and more searching costs more
    // than it finds.
    const littleNew = roundOne.new < LITTLE_NEW_SHARE * (roundOne.new + roundOne.known)
    const affordable = tokensLeft(budget, spentOf([planUsage], costDollars)) >= FOLLOW_UP_TOKENS
    if (depth.followUpQueries > 0 && !littleNew && !affordable) leftOut.push('the follow-up round')
    if (depth.followUpQueries > 0 && !littleNew && affordable) {
      // Round one was planned with memory's digest; the follow-up needs only what round one found.
      const input = { ...planInput(brief, checkpoint, depth.followUpQueries), knownFacts: [], pastQueries: [] }
      input.followUp = { queries, found: roundOneSays([...found.values()], brief) }
      let followUp: string[]
      try {
        const answer = await deps.model.plan(input, { signal })
        followUp = answer.plan.queries
        usage = answer.usage
      } catch (error) {
        signal.throwIfAborted()
        usage = usageOf(error) // an unusable answer was still paid for
        followUp = fallbackPlan(input).queries
      }
      const asked = new Set(queries.map((query) => query.toLowerCase()))
      await runQueries(followUp.filter((query) => !asked.has(query.toLowerCase())).slice(0, depth.followUpQueries))
    }
    if (leftOut.length > 0) await budgetWarning(event, 'search', brief, deps, leftOut)
    return {
      sources: [...found.values()],
      queries: searched,
      searchCalls,
      costDollars,
      removedByLedger,
      usage,
      ...(leftOut.length > 0 ? { leftOut } : {}),
    }
  },

  async synthesize({ deps, accountId, brief, checkpoint, signal, event }) {
    const memory = checkpoint.load_memory as NonNullable<Checkpoint['load_memory']>
    const found = checkpoint.search as NonNullable<Checkpoint['search']>
    const framework = brief.frameworkId ? findFramework(brief.frameworkId) : undefined
    const depth = DEPTH[brief.depth]
    const plan = checkpoint.plan as NonNullable<Checkpoint['plan']>
    const budget = budgetOf(brief, deps)
    const leftOut = [...(plan.leftOut ?? []), ...(found.leftOut ?? [])]
    const leftOutBefore = leftOut.length
    const leftBefore = tokensLeft(budget, spentOf([plan.usage, found.usage], found.costDollars))
    // What the budget lets the model read, after its answer and its fixed prompt are set aside.
    const affordable = readableCharacters(leftBefore, SYNTHESIS_MAX_OUTPUT_TOKENS[brief.depth], SYNTHESIS_FIXED_TOKENS)
    const full = readPassages(found.sources, briefText(brief), depth.passageCharacters, depth.contextCeiling)
    const modelCanWrite = found.sources.length === 0 || affordable >= MIN_AFFORDABLE_CHARACTERS
    const reading =
      modelCanWrite && affordable < full.charactersRead
        ? readPassages(found.sources, briefText(brief), depth.passageCharacters, affordable)
        : full
    if (reading !== full) leftOut.push('part of the pages found')
    const sources = reading.pages.map((page, position) => {
      const source = found.sources[page.index] as SearchResult
      return {
        id: position + 1,
        url: source.url,
        title: source.title,
        publishedDate: source.publishedDate,
        text: page.text,
      }
    })
    // Read again here rather than carried from load_memory: the checkpoint stays small (up to 2,000
    // claims would be sealed into it at every step), and a run saved meanwhile is seen.
    const stored = memory.baseline ? undefined : await loadTopicMemory(deps.memory, accountId, brief.topic)
    const digest = memoryDigest(stored, [briefText(brief), ...sources.map((source) => source.text)].join('\n'))
    const input = {
      topic: brief.topic,
      objective: brief.objective,
      focus: focusAreas(brief),
      reportStyle: brief.reportStyle,
      framework,
      depth: brief.depth,
      sources,
      knownFacts: digest.facts,
      recentRuns: digest.recentRuns,
      today: today(),
      lastRunAt: memory.since?.slice(0, 10),
    }
    let writer: LanguageModel = deps.model
    let synthesis: Awaited<ReturnType<LanguageModel['synthesize']>>
    const restated = stored && restatedOnly(sources, stored.facts)
    if (sources.length === 0) {
      synthesis = {
        synthesis: { headline: 'Nothing new was found', findings: [], gaps: [] },
        usage: { inputTokens: 0, outputTokens: 0 },
      }
    } else if (restated) {
      // Every sentence read is one memory quoted before: confirmed by the rules, no model paid.
      writer = EXTRACTIVE
      synthesis = {
        synthesis: { headline: 'Nothing new was found', findings: restated.slice(0, MAX_RESTATED), gaps: [] },
        usage: { inputTokens: 0, outputTokens: 0 },
      }
    } else if (!modelCanWrite) {
      // Too little budget left for the model to write: the pages are written up without it.
      writer = EXTRACTIVE
      synthesis = await EXTRACTIVE.synthesize(input, { signal })
      leftOut.push("the model's report")
    } else {
      try {
        synthesis = await deps.model.synthesize(input, { signal })
      } catch (error) {
        signal.throwIfAborted()
        if (deps.model.kind !== 'model' || !(error instanceof ProviderError)) throw error
        // The searches are paid for: the pages are written up without a model rather than lost.
        writer = EXTRACTIVE
        synthesis = { ...(await EXTRACTIVE.synthesize(input, { signal })), usage: usageOf(error) }
        await event('warning', 'synthesize', {
          code: 'extractive_fallback',
          message: `The model could not write the report (${error.message}), so it was written without a model: sentences quoted from the pages read.`,
        })
      }
    }
    // A model that could not write the report is not asked to judge it either, nor one the budget
    // cannot pay for again: the rules decide.
    const judgeAffordable =
      tokensLeft(budget, spentOf([plan.usage, found.usage, synthesis.usage], found.costDollars)) >= JUDGE_TOKENS
    if (writer !== EXTRACTIVE && !judgeAffordable && !memory.baseline) leftOut.push('the claim judge')
    if (leftOut.length > leftOutBefore) {
      await budgetWarning(event, 'synthesize', brief, deps, leftOut.slice(leftOutBefore))
    }
    const checked = await classifyRunClaims(
      { model: writer === EXTRACTIVE || !judgeAffordable ? EXTRACTIVE : deps.model },
      {
        topic: brief.topic,
        memory: stored,
        synthesis: synthesis.synthesis,
        sources,
        signal,
      },
    )
    if (checked.embeddingsFailed) {
      await event('warning', 'synthesize', {
        code: 'embeddings_unavailable',
        message: `Claims were matched with memory by their words only: embeddings failed (${checked.embeddingsFailed}).`,
      })
    }
    if (checked.integrity.droppedUnsupported > 0) {
      const dropped = checked.integrity.droppedUnsupported
      await event('warning', 'synthesize', {
        code: 'claims_unsupported',
        message: `${dropped} ${dropped === 1 ? 'claim was' : 'claims were'} not shown: the quote was on no page it cited, or the claim stated a figure its quote does not.`,
        dropped,
      })
    }
    const usages = [plan.usage, found.usage, synthesis.usage, checked.usage]
    const report = buildReport({
      topic: brief.topic,
      synthesis: synthesis.synthesis,
      claims: checked.claims,
      integrity: checked.integrity,
      sources,
      baseline: memory.baseline,
      since: memory.since,
      reportStyle: brief.reportStyle,
      framework,
      generatedWith: {
        synthesis: writer.name,
        synthesisKind: writer.kind,
        search: deps.search.name,
        plan: plan.fallback ? 'fallback' : 'model',
      },
      usage: {
        inputTokens: usages.reduce((sum, usage) => sum + usage.inputTokens, 0),
        outputTokens: usages.reduce((sum, usage) => sum + usage.outputTokens, 0),
        searchCalls: found.searchCalls,
        costDollars: found.costDollars > 0 ? Math.round(found.costDollars * 1e6) / 1e6 : null,
        charactersRead: reading.charactersRead,
        charactersAvailable: reading.charactersAvailable,
      },
      ...(budget.maxTokens !== undefined || budget.maxCostDollars !== undefined
        ? {
            budget: {
              maxTokens: budget.maxTokens ?? null,
              maxCostDollars: budget.maxCostDollars ?? null,
              reached: leftOut.length > 0,
              leftOut,
            },
          }
        : {}),
    })
    return {
      report,
      headline: synthesis.synthesis.headline,
      facts: checked.facts,
      vectors: checked.vectors,
      openQuestions: synthesis.synthesis.gaps,
    }
  },

  async save_memory({ deps, runId, accountId, brief, checkpoint, event }) {
    const report = checkpoint.synthesize?.report as Report
    const found = checkpoint.search as NonNullable<Checkpoint['search']>
    try {
      await saveTopicMemory(deps.memory, accountId, brief.topic, {
        runId,
        at: new Date(),
        facts: checkpoint.synthesize?.facts ?? [],
        vectors: checkpoint.synthesize?.vectors,
        sources: report.sources.map((source) => ({
          url: source.url,
          title: source.title,
          publishedDate: source.publishedAt,
        })),
        urlsRead: found.sources.map((source) => source.url),
        summary: checkpoint.synthesize?.headline,
        queries: found.queries,
        openQuestions: checkpoint.synthesize?.openQuestions,
      })
      return { saved: true }
    } catch (error) {
      // Spec 7.2: a failed memory save does not fail the run.
      deps.log.warn({ runId, err: error }, 'memory save failed; the run completes without it')
      const message =
        error instanceof MemoryUnreadableError
          ? 'Memory for this topic could not be decrypted, so it was left untouched and not updated.'
          : 'Memory could not be saved for this run; the report is complete, but the next run will not know what this one read.'
      await event('warning', 'save_memory', { code: 'memory_save_failed', message })
      return { saved: false }
    }
  },
}

/**
 * What round one's pages say, for planning the follow-up: each page's title and the passage that
 * matters most to the brief, a line each (not titles alone, which say little of what a page answers).
 */
function roundOneSays(pages: Array<SearchResult & { query: string }>, brief: Brief): string[] {
  const shown = pages.slice(0, FOLLOW_UP_PAGES)
  const reading = readPassages(shown, briefText(brief), FOLLOW_UP_PASSAGE_CHARACTERS)
  return reading.pages.map((page) => {
    const title = (shown[page.index] as SearchResult).title
    const said = page.text.replaceAll(PASSAGE_GAP, ' … ').replace(/\s+/g, ' ').trim()
    return `${title}: ${said}`
  })
}

/** The run's budget: the brief's, else the server's token default; model prices when configured. */
function budgetOf(brief: Brief, deps: EngineDeps): Budget {
  return {
    maxTokens: brief.maxTokens ?? deps.maxTokens,
    maxCostDollars: brief.maxCostDollars,
    prices: deps.prices,
  }
}

/** A `warning` event saying what the budget left out of a step, and what the budget is. */
async function budgetWarning(
  event: StepContext['event'],
  step: Step,
  brief: Brief,
  deps: EngineDeps,
  leftOut: string[],
): Promise<void> {
  const budget = budgetOf(brief, deps)
  const limits = [
    budget.maxTokens !== undefined && `${budget.maxTokens} tokens`,
    budget.maxCostDollars !== undefined && `$${budget.maxCostDollars}`,
  ].filter(Boolean)
  await event('warning', step, {
    code: 'budget_reached',
    message: `The run's budget (${limits.join(', ')}) left out ${leftOut.join(', ')}; it finishes with what it has.`,
    leftOut,
  })
}

/** What passages are ranked against: the brief's topic, objective and focus. */
function briefText(brief: Brief): string {
  return [brief.topic, brief.objective ?? '', ...focusAreas(brief)].join(' ')
}

function planInput(brief: Brief, checkpoint: Checkpoint, maxQueries: number): PlanInput {
  const framework = brief.frameworkId ? findFramework(brief.frameworkId) : undefined
  const memory = checkpoint.load_memory
  return {
    knownFacts: memory?.digest?.facts ?? (memory?.knownFacts ?? []).slice(-20),
    recentRuns: memory?.digest?.recentRuns ?? [],
    openQuestions: memory?.openQuestions ?? [],
    pastQueries: memory?.pastQueries ?? [],
    today: today(),
    lastRunAt: memory?.since?.slice(0, 10),
    topic: brief.topic,
    objective: brief.objective,
    focus: focusAreas(brief),
    depth: brief.depth,
    timeframe: timeframePhrase(brief.timeframe),
    framework,
    maxQueries,
  }
}

function today(): string {
  return new Date().toISOString().slice(0, 10)
}

/**
 * The earliest publication date searched: the brief's timeframe, or on a re-run the last run's date
 * less two days when that is narrower (what was published since is what can be new; the two days
 * cover pages indexed late).
 */
function searchFrom(brief: Brief, since: string | null, now: Date): string | undefined {
  const fromTimeframe = startPublishedDate(brief.timeframe, now)
  if (!since) return fromTimeframe
  const fromLastRun = new Date(Date.parse(since) - RE_RUN_OVERLAP_DAYS * 86_400_000).toISOString().slice(0, 10)
  return !fromTimeframe || fromLastRun > fromTimeframe ? fromLastRun : fromTimeframe
}

async function mapWithConcurrency<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await fn(item)
    }
  })
  await Promise.all(workers)
}
