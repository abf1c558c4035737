// One research run: load_memory -> plan -> search -> synthesize -> save_memory. Each step's output
// is sealed into the run's checkpoint before the next starts, so a retried job (a worker died, a
// deploy) resumes at the first unfinished step and never repeats a paid call it has the result of.
// The last, save_memory, is done in the transaction that completes the run (endWithMemory).
import { setImmediate } from 'node:timers/promises'
import type { Db } from '#db/database.ts'
import { batchedWriter } from '#server/events/batched-writes.ts'
import { ProviderError, usageOf } from '#server/providers/types.ts'
import { type ProviderWait, reportingWaits } from '#server/providers/waits.ts'
import { spentOf, tokensLeft } from '#server/research/budget.ts'
import { checkpointJson, parseCheckpoint } from '#server/research/checkpoint.ts'
import { memoryDigest } from '#server/research/digest.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { pageTexts } from '#server/research/passages.ts'
import {
  briefText,
  budgetOf,
  budgetWarning,
  type Checkpoint,
  DEPTH,
  type EngineDeps,
  PLAN_TOKENS,
  planInput,
  RunFailure,
  STEPS,
  type Step,
  type StepContext,
  type StepOutputs,
  stepInput,
} from '#server/research/run-context.ts'
import { searchStep } from '#server/research/step-search.ts'
import { synthesizeStep } from '#server/research/step-synthesize.ts'
import type { NewEvent, RunError } from '#server/runs/contract.ts'
import { MemoryUnreadableError } from '#server/topics/contract.ts'
import type { Brief } from '#server/vocabulary/brief.ts'

export { DEPTH, type EngineDeps, SEARCH_CONCURRENCY, STEPS, type Step } from '#server/research/run-context.ts'

/** The plan's share of memory: it needs less than the synthesis, which checks what is new. */
const PLAN_DIGEST_CHARACTERS = 3000
/** Queries of this many recent runs are shown to the plan, to vary its angles. */
const PAST_QUERY_RUNS = 3
/**
 * How long a lingering progress event (a search's query_done) waits for the next write: a round's
 * searches answer within a few milliseconds, and their events then go with the boundary after it.
 */
const PROGRESS_LINGER_MS = 50

class RunCancelled extends Error {}

/** Runs (or resumes) a run to its end. Throws only for infrastructure failures, so the job retries. */
export async function runResearch(deps: EngineDeps, runId: string): Promise<void> {
  const { runs } = deps
  // With its topic's memory, when it starts from the beginning: what load_memory reads.
  const run = await runs.take(runId, deps.memory.now())
  if (!run) return // finished, cancelled or gone: nothing to do
  const { brief } = run
  const remainingMs = run.deadlineAt.getTime() - Date.now()
  // The run's writes, in order: boundaries and progress events, each only while the run is running.
  // Events a step makes at once (its searches answering together) go in one statement; so do events
  // made while a boundary is written, with it. Once a write finds the run ended (cancelled, or by the
  // sweeper), nothing more is written and the step's calls are aborted.
  // A write that fails fails every write after it: a step whose events are not all written does
  // not reach its boundary, and the job resumes from the last one.
  const stopped = new AbortController()
  let failedWrite: { error: unknown } | undefined
  const writer = batchedWriter(
    async (writes: RunWrite[]) => {
      // One statement per boundary, carrying the events made before it and after it (in order).
      for (let at = 0; at < writes.length; ) {
        let end = at
        let move: RunWrite['move']
        for (; end < writes.length && !(move && writes[end]?.move); end++) move ??= writes[end]?.move
        stopped.signal.throwIfAborted()
        if (failedWrite) throw failedWrite.error
        const events = writes.slice(at, end).flatMap((written) => written.events)
        let wrote: boolean
        try {
          wrote = move ? await runs.advance(runId, { ...move, events }) : await runs.progress(runId, events)
        } catch (error) {
          failedWrite = { error }
          throw error
        }
        if (!wrote) {
          stopped.abort(new RunCancelled())
          stopped.signal.throwIfAborted()
        }
        at = end
      }
    },
    { lingerMs: PROGRESS_LINGER_MS },
  )
  const { write, flush } = writer
  const event: StepContext['event'] = (type, step, data, options) => write({ events: [{ type, step, data }] }, options)

  if (remainingMs <= 0) {
    // Taken only now, after its queue's time and its own limit: no worker came for it in time.
    const error = run.takenBefore ? deadlineError(brief) : NOT_TAKEN_ERROR
    await deps.endRun(runId, { status: 'failed', error })
    return
  }
  const deadline = new AbortController()
  const timer = setTimeout(
    () => deadline.abort(new RunFailure(deadlineError(brief).code, deadlineError(brief).message)),
    remainingMs,
  )
  const signal = AbortSignal.any([deadline.signal, stopped.signal])
  const stored = parseCheckpoint(run.checkpoint)
  if (stored?.success === false) {
    // Written by another version in another shape: paid work is done again rather than misread.
    deps.log.warn(
      { runId, issues: stored.error.issues.slice(0, 5) },
      "the run's checkpoint is not this version's: its steps run again",
    )
  }
  const checkpoint: Checkpoint = stored?.success ? stored.data : {}
  const serialized = checkpointJson(checkpoint)
  let written: Promise<void> = Promise.resolve()
  // The provider that answered 429 and has not answered since, if any.
  let refusing: string | undefined
  try {
    // Each boundary is one statement: the step that ended (its output, step_finished) and the next.
    // load_memory, a read that pays for nothing, has no boundary before it: its step_started is
    // written with its end, at the plan's boundary.
    let ended: { step: Step; ms: number; announced: boolean } | undefined
    const stepFinished = (): NewEvent[] =>
      ended
        ? [
            ...(ended.announced ? [] : [{ type: 'step_started', step: ended.step } as const]),
            { type: 'step_finished', step: ended.step, data: { ms: ended.ms } },
          ]
        : []
    const advance = (next: Step): Promise<void> => {
      const events: NewEvent[] = [
        ...stepFinished(),
        // The run page names the search step by what it searches: the web, or the local corpus.
        {
          type: 'step_started',
          step: next,
          data: next === 'search' && deps.search.corpus ? { corpus: true } : undefined,
        },
      ]
      const boundary = write({ events, move: { step: next, checkpointJson: ended ? serialized.json() : undefined } })
      // Awaited by the step, or by the end of the run if the step fails first.
      boundary.catch(() => undefined)
      return boundary
    }
    const texts = pageTexts()
    const { accountId, memoryRead } = run
    const context = { deps, runId, accountId, brief, signal, written, texts, event, flush, memoryRead }
    for (const step of BOUNDED_STEPS) {
      if (checkpoint[step]) continue
      const announced = step !== 'load_memory'
      // The step begins while its boundary is written: the statement's round trip overlaps the
      // step's own work (choosing the passages to read, before the synthesis), and the step awaits
      // `written` before it pays for anything. The statement goes out before that work starts.
      if (announced) {
        written = advance(step)
        await setImmediate()
      }
      const started = Date.now()
      // A provider's rate limit the step waits for is shown as its detail: "Waiting for exa's rate limit".
      const run = (): Promise<unknown> => runStep(step, { ...context, written }, checkpoint)
      const output = await reportingWaits((news) => {
        if (news.why === 'answered') {
          if (refusing === news.provider) refusing = undefined
          return
        }
        if (news.why === 'rate_limited') refusing = news.provider
        event('warning', step, waitWarning(news)).catch(() => undefined)
      }, run)
      await written
      Object.assign(checkpoint, { [step]: output })
      serialized.add(step, output)
      ended = { step, ms: Date.now() - started, announced }
    }
    // The last step has no boundary of its own: memory is saved in the transaction that ends the
    // run, so the synthesis's output is stored once (as the report and in memory), not first in a
    // checkpoint the end clears at once; and the run and its memory commit together. (A run resumed
    // from a checkpoint that recorded the save saves again: the same run twice changes nothing.)
    try {
      await endWithMemory({ ...context, input: stepInput('save_memory', checkpoint) }, stepFinished())
    } catch (error) {
      // The end could not be written (the database, most likely): the boundary it replaced, so the
      // retried job resumes with the synthesis it paid for instead of asking for it again.
      if (ended) await advance('save_memory').catch(() => undefined)
      throw error
    }
  } catch (error) {
    // A step that failed while its boundary or its events were being written: they settle first,
    // so whatever ends the run comes after them, and a cancellation they found is known.
    await writer.settled()
    if (stopped.signal.aborted) return
    const reason = deadline.signal.aborted ? deadline.signal.reason : error
    if (reason instanceof RunCancelled) return
    // Out of time while a provider was still refusing: that provider, not the run's length, is why.
    const runError = deadline.signal.aborted && refusing ? rateLimitedError(refusing, brief) : toRunError(reason)
    if (!runError) throw error // infrastructure: let the job retry and resume from the checkpoint
    deps.log.warn({ runId, error: runError }, 'run failed')
    await deps.endRun(runId, { status: 'failed', error: runError }, { brief })
  } finally {
    clearTimeout(timer)
  }
}

/** A provider wait as the run page shows it. */
function waitWarning(wait: ProviderWait): Record<string, unknown> {
  const seconds = Math.max(1, Math.round(wait.ms / 1000))
  if (wait.why === 'shared_concurrency') {
    return {
      code: 'rate_limited',
      message: `Waiting for ${wait.provider}: every worker together has as many calls to it running as it allows; the run goes on when one ends.`,
      provider: wait.provider,
      waitMs: Math.round(wait.ms),
    }
  }
  const why =
    wait.why === 'rate_limited' ? 'it answered 429, too many requests' : 'its rate, shared by every worker, is spent'
  return {
    code: 'rate_limited',
    message: `Waiting ${seconds} s for ${wait.provider}'s rate limit (${why}); the run goes on after it.`,
    provider: wait.provider,
    waitMs: Math.round(wait.ms),
  }
}

/** What the run writes: progress events, or a step boundary (the run moved on, with these events). */
type RunWrite = { events: NewEvent[]; move?: { step: Step; checkpointJson?: string } }

/** A run that waited in the queue past RUN_QUEUE_TIMEOUT and its own time limit. */
export const NOT_TAKEN_ERROR: RunError = {
  code: 'deadline_exceeded',
  message: 'No worker took the run within RUN_QUEUE_TIMEOUT: the workers were busy or stopped. Try again later.',
}

function deadlineError(brief: Brief): RunError {
  return {
    code: 'deadline_exceeded',
    message: `The ${brief.depth} run did not finish within its time limit. The providers may be slow or down; try again, or use depth "quick".`,
  }
}

function rateLimitedError(provider: string, brief: Brief): RunError {
  return {
    code: `${provider.replace(/\W+/g, '_')}_unavailable`,
    message: `${provider}: kept answering 429 (too many requests) until the ${brief.depth} run's time limit; the run waited for it and stopped there. Try again later, or raise the provider's rate limit.`,
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

/** The steps that end at a boundary (their output checkpointed): all but save_memory, which runs in the run's end. */
type BoundedStep = Exclude<Step, 'save_memory'>
const BOUNDED_STEPS = STEPS.filter((step): step is BoundedStep => step !== 'save_memory')

/** A step's context: the run's, and the outputs it takes of the steps before it. */
type RunContext = Omit<StepContext, 'input'>

function runStep<S extends BoundedStep>(step: S, context: RunContext, checkpoint: Checkpoint): Promise<StepOutputs[S]> {
  const runner = STEP_RUNNERS[step] as (context: StepContext<S>) => Promise<StepOutputs[S]>
  return runner({ ...context, input: stepInput(step, checkpoint) })
}

const STEP_RUNNERS: { [S in BoundedStep]: (context: StepContext<S>) => Promise<StepOutputs[S]> } = {
  async load_memory({ deps, accountId, brief, memoryRead }) {
    const memory = await deps.memory.load(accountId, brief.topic, memoryRead)
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

  async plan({ deps, brief, input: taken, signal, written, event }) {
    const input = planInput(brief, taken.load_memory, DEPTH[brief.depth].queries)
    if (tokensLeft(budgetOf(brief, deps), spentOf([], 0)) < PLAN_TOKENS) {
      await budgetWarning(event, 'plan', brief, deps, ["the model's plan"])
      const usage = { inputTokens: 0, outputTokens: 0 }
      return { queries: fallbackPlan(input).queries, fallback: true, usage, leftOut: ["the model's plan"] }
    }
    await written
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

  search: searchStep,
  synthesize: synthesizeStep,
}

/**
 * Completes the run, saving what it learned in the same transaction (after `leading`, the last
 * boundary's step_finished). A memory save that fails does not fail the run (spec 7.2): the run
 * completes without it, with a warning. Throws when the end itself could not be written.
 */
async function endWithMemory(context: StepContext<'save_memory'>, leading: NewEvent[]): Promise<void> {
  const { deps, runId, brief, input } = context
  const complete = { status: 'complete', report: input.synthesize.report } as const
  const started = Date.now()
  const memoryStep = (events: NewEvent[]): NewEvent[] => [
    { type: 'step_started', step: 'save_memory' },
    ...events,
    { type: 'step_finished', step: 'save_memory', data: { ms: Date.now() - started } },
  ]
  let failure: unknown
  try {
    await deps.endRun(runId, complete, {
      brief,
      events: leading,
      lastStep: async (trx) => {
        try {
          await saveMemory(trx, context)
        } catch (error) {
          failure = error
          throw error
        }
        return memoryStep([])
      },
    })
  } catch (error) {
    if (failure === undefined || error !== failure) throw error
    deps.log.warn({ runId, err: error }, 'memory save failed; the run completes without it')
    const message =
      error instanceof MemoryUnreadableError
        ? 'Memory for this topic could not be decrypted, so it was left untouched and not updated.'
        : 'Memory could not be saved for this run; the report is complete, but the next run will not know what this one read.'
    const warning: NewEvent = { type: 'warning', step: 'save_memory', data: { code: 'memory_save_failed', message } }
    await deps.endRun(runId, complete, { brief, events: [...leading, ...memoryStep([warning])] })
  }
}

/** What the run learned, merged into its topic's memory in the transaction that ends the run. */
async function saveMemory(trx: Db, { deps, runId, accountId, brief, input }: StepContext<'save_memory'>) {
  const { search: found, synthesize: synthesis } = input
  await deps.memory.saveIn(trx, accountId, brief.topic, {
    runId,
    at: new Date(),
    facts: synthesis.facts,
    vectors: synthesis.vectors,
    sources: synthesis.report.sources.map((source) => ({
      url: source.url,
      title: source.title,
      publishedDate: source.publishedAt,
    })),
    urlsRead: found.sources.map((source) => source.url),
    summary: synthesis.headline,
    queries: found.queries,
    openQuestions: synthesis.openQuestions,
  })
}
