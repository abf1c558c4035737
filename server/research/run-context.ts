import type { Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { TopicMemoryTable } from '#db/schema.ts'
import type { Logger } from '#server/logger.ts'
import { PLAN_MAX_OUTPUT_TOKENS } from '#server/providers/llm/output-limits.ts'
import type { PageReader } from '#server/providers/reader/page-reader.ts'
import type { LanguageModel, PlanInput, SearchProvider } from '#server/providers/types.ts'
import type { Budget } from '#server/research/budget.ts'
import type { Checkpoint, StepOutputs } from '#server/research/checkpoint.ts'
import { createExtractiveModel } from '#server/research/extractive.ts'
import type { PageTexts } from '#server/research/passages.ts'
import type { NewEvent, RunEndKnown, RunError, RunOutcome } from '#server/runs/contract.ts'
import type { MemoryContribution, TopicMemory } from '#server/topics/contract.ts'
import { type Brief, focusAreas, timeframePhrase } from '#server/vocabulary/brief.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'

export type { Checkpoint, StepOutputs }

export const STEPS = ['load_memory', 'plan', 'search', 'synthesize', 'save_memory'] as const
export type Step = (typeof STEPS)[number]

/** The topic's memory row as read with the run's row (null: none there): load_memory's read. */
export type MemoryRead = { topicHash: Buffer; row: Selectable<TopicMemoryTable> | null }

/**
 * What a run asks of its topic's memory (the topics module's; a port, decision 063), and the
 * database, clock and log it is kept with. server/services.ts hands it createTopicMemoryForRuns.
 */
export type RunMemory = {
  db: Db
  log: Logger
  now: () => Date
  /** The keyed hash the topic is found by: its name is never stored. */
  topicHash(accountId: string, topic: string): Buffer
  /** Whether this server holds the key memory sealed with `keyId` needs (it may still not open). */
  holdsKey(keyId: string): boolean
  /** The id of the account's topic with this hash while it has live memory (a run's page links it). */
  liveTopicId(accountId: string, topicHash: Buffer): Promise<string | undefined>
  /** The topic's live, readable memory, or undefined; `read`: the row the run's start read with it. */
  load(accountId: string, topic: string, read?: MemoryRead): Promise<TopicMemory | undefined>
  /**
   * Merges what the run learned into its topic's memory, in the transaction that ends the run.
   * Memory that cannot be opened is left untouched: MemoryUnreadableError.
   */
  saveIn(trx: Db, accountId: string, topic: string, contribution: MemoryContribution): Promise<void>
}

/** A run as its worker takes it (RunRecord.take). */
export type TakenRun = {
  accountId: string
  /** Its brief, opened. */
  brief: Brief
  /** When its time is up: counted from this take when it is the first (its clock starts now). */
  deadlineAt: Date
  /** Whether a worker took it before (false: it starts now, or waited past its time in the queue). */
  takenBefore: boolean
  /** Its checkpoint's JSON, opened: what the steps that ended wrote; undefined when none has. */
  checkpoint: string | undefined
  /** Its topic's memory, read with it when it starts from the beginning (load_memory's read). */
  memoryRead: MemoryRead | undefined
}

/**
 * The run the engine works on, as the runs module keeps it (server/runs/record.ts's runRecord; a
 * port, decision 063): its row, its step and checkpoint, and the events it writes as it goes.
 */
export type RunRecord = {
  /** The run, if it is running; undefined when it has ended or is gone (nothing to do). */
  take(runId: string, now: Date): Promise<TakenRun | undefined>
  /**
   * One statement per step boundary: the finished step's checkpoint (its JSON, from
   * checkpointJson) and events, the next step and its events. False when the run is no longer
   * running (cancelled, or failed by the sweeper): nothing was written.
   */
  advance(runId: string, move: { step: Step; checkpointJson?: string; events: NewEvent[] }): Promise<boolean>
  /** Writes progress events, only while the run is running: false when it no longer is. */
  progress(runId: string, events: NewEvent[]): Promise<boolean>
}

export type EngineDeps = {
  memory: RunMemory
  /** The run it works on (the runs module's). */
  runs: RunRecord
  search: SearchProvider
  /** Reads the pages of snippet-only results; without one, a run keeps the snippets. */
  reader?: PageReader
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
  /** Ends the run (see run-end.ts) with its brief at hand; false when something else ended it first. */
  endRun: (runId: string, outcome: RunOutcome, known?: RunEndKnown<Db>) => Promise<boolean>
}

/** What each step takes: the outputs of the steps before it that it reads. */
const STEP_TAKES = {
  load_memory: [],
  plan: ['load_memory'],
  search: ['load_memory', 'plan'],
  synthesize: ['load_memory', 'plan', 'search'],
  save_memory: ['search', 'synthesize'],
} as const satisfies { [S in Step]: readonly Exclude<keyof StepOutputs, S>[] }
export type StepInput<S extends Step> = Pick<StepOutputs, (typeof STEP_TAKES)[S][number]>

/**
 * The step's input from the checkpoint. Steps run in order, so each output it takes is there; one
 * missing is a checkpoint this version cannot resume, and the run fails as a bug would.
 */
export function stepInput<S extends Step>(step: S, checkpoint: Checkpoint): StepInput<S> {
  const input: Checkpoint = {}
  for (const taken of STEP_TAKES[step] as readonly (keyof StepOutputs)[]) {
    if (checkpoint[taken] === undefined) throw new Error(`The run's ${step} step has no ${taken} output to take.`)
    Object.assign(input, { [taken]: checkpoint[taken] })
  }
  return input as StepInput<S>
}

// maxCharacters: what a search returns of a page, and what is kept of a page the reader fetched (its
// passages that matter most); pagesRead: the most snippet-only results whose pages a run fetches;
// passageCharacters: what the model reads of it, its
// passages that matter most to the brief (server/research/passages.ts); contextCeiling: the most a
// run's pages give together (about 6,000 and 30,000 tokens), for a run that finds very many.
export const DEPTH = {
  quick: {
    queries: 3,
    followUpQueries: 0,
    resultsPerQuery: 5,
    maxCharacters: 3000,
    pagesRead: 15,
    passageCharacters: 1200,
    contextCeiling: 24_000,
  },
  deep: {
    queries: 6,
    followUpQueries: 3,
    resultsPerQuery: 8,
    maxCharacters: 6000,
    pagesRead: 40,
    passageCharacters: 3000,
    contextCeiling: 120_000,
  },
} as const

export const SEARCH_CONCURRENCY = 3
/** What a plan call needs of the budget: its answer and its prompt. */
export const PLAN_TOKENS = PLAN_MAX_OUTPUT_TOKENS + 1500

/** Writes the report when the model cannot, from the pages the run paid to read. */
export const EXTRACTIVE = createExtractiveModel()

/** Why a run stopped early, in words a user can act on. */
export class RunFailure extends Error {
  readonly runError: RunError
  constructor(code: string, message: string) {
    super(message)
    this.runError = { code, message }
  }
}

export type StepContext<S extends Step = Step> = {
  deps: EngineDeps
  runId: string
  accountId: string
  brief: Brief
  /** The outputs of the steps before it that the step takes. */
  input: StepInput<S>
  signal: AbortSignal
  /**
   * The step's boundary (its step_started, the previous step's output), written while the step
   * begins. A step awaits it before its first paid call: it rejects when the run was cancelled
   * meanwhile, so a cancelled run pays for nothing more. Its events are written after it anyway.
   */
  written: Promise<void>
  /** The run's page texts as passages are chosen from them: prepared while the search step waits. */
  texts: PageTexts
  /** The topic's memory as read with the run's row (a run starting afresh): load_memory's read. */
  memoryRead?: MemoryRead
  /**
   * Writes a progress event, in order behind the run's other writes. A lingering one (a search's
   * query_done) waits a little for the next write to go with it: see server/events/batched-writes.ts.
   */
  event: (
    type: 'query_done' | 'pages_read' | 'warning',
    step: Step,
    data: Record<string, unknown>,
    options?: { linger?: boolean },
  ) => Promise<unknown>
  /** Writes lingering events now: before a paid call that waits for them. */
  flush: () => void
}

/** The run's budget: the brief's, else the server's token default; model prices when configured. */
export function budgetOf(brief: Brief, deps: EngineDeps): Budget {
  return {
    maxTokens: brief.maxTokens ?? deps.maxTokens,
    maxCostDollars: brief.maxCostDollars,
    prices: deps.prices,
  }
}

/** A `warning` event saying what the budget left out of a step, and what the budget is. */
export async function budgetWarning(
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
export function briefText(brief: Brief): string {
  return [brief.topic, brief.objective ?? '', ...focusAreas(brief)].join(' ')
}

export function planInput(brief: Brief, memory: StepOutputs['load_memory'], maxQueries: number): PlanInput {
  const framework = brief.frameworkId ? findFramework(brief.frameworkId) : undefined
  return {
    knownFacts: memory.digest?.facts ?? (memory.knownFacts ?? []).slice(-20),
    recentRuns: memory.digest?.recentRuns ?? [],
    openQuestions: memory.openQuestions ?? [],
    pastQueries: memory.pastQueries ?? [],
    today: today(),
    lastRunAt: memory.since?.slice(0, 10),
    topic: brief.topic,
    objective: brief.objective,
    focus: focusAreas(brief),
    depth: brief.depth,
    timeframe: timeframePhrase(brief.timeframe),
    framework,
    maxQueries,
  }
}

export function today(): string {
  return new Date().toISOString().slice(0, 10)
}
