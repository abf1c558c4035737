// One research run: load_memory -> plan -> search -> synthesize -> save_memory. Each step's output
// is sealed into the run's checkpoint before the next starts, so a retried job (a worker died, a
// deploy) resumes at the first unfinished step and never repeats a paid call it has the result of.
import { appendRunEvent, type NewEvent } from '#server/events/run-events.ts'
import { loadTopicMemory, MemoryUnreadableError, saveTopicMemory } from '#server/memory/store.ts'
import { ProviderError, usageOf } from '#server/providers/types.ts'
import { getRun } from '#server/repositories/runs.ts'
import type { Brief } from '#server/research/brief.ts'
import { spentOf, tokensLeft } from '#server/research/budget.ts'
import { memoryDigest } from '#server/research/digest.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import type { Report } from '#server/research/report-types.ts'
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
} from '#server/research/run-context.ts'
import { advanceRun, checkpointJson, openRunBrief, type RunError, readCheckpoint } from '#server/research/runs.ts'
import { searchStep } from '#server/research/step-search.ts'
import { synthesizeStep } from '#server/research/step-synthesize.ts'

export { DEPTH, type EngineDeps, SEARCH_CONCURRENCY, STEPS, type Step } from '#server/research/run-context.ts'

/** The plan's share of memory: it needs less than the synthesis, which checks what is new. */
const PLAN_DIGEST_CHARACTERS = 3000
/** Queries of this many recent runs are shown to the plan, to vary its angles. */
const PAST_QUERY_RUNS = 3

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
  const serialized = checkpointJson(checkpoint)
  try {
    // Each boundary is one statement: the step that ended (its output, step_finished) and the next.
    let ended: { step: Step; ms: number } | undefined
    const stepFinished = (): NewEvent[] =>
      ended ? [{ type: 'step_finished', step: ended.step, data: { ms: ended.ms } }] : []
    const advance = async (next: Step) => {
      const events: NewEvent[] = [
        ...stepFinished(),
        // The run page names the search step by what it searches: the web, or the local corpus.
        {
          type: 'step_started',
          step: next,
          data: next === 'search' && deps.search.corpus ? { corpus: true } : undefined,
        },
      ]
      const checkpointed = ended ? serialized.json() : undefined
      if (!(await advanceRun(db, ring, runId, { step: next, checkpointJson: checkpointed, events }))) {
        throw new RunCancelled()
      }
    }
    for (const step of STEPS) {
      if (checkpoint[step]) continue
      await advance(step)
      const started = Date.now()
      const context = { deps, runId, accountId: row.account_id, brief, checkpoint, signal: deadline.signal, event }
      const output = await STEP_RUNNERS[step](context)
      Object.assign(checkpoint, { [step]: output })
      serialized.add(step, output)
      ended = { step, ms: Date.now() - started }
    }
    // The last step's end is written with the run's: no boundary of its own, whose checkpoint the
    // end would clear at once.
    const report = checkpoint.synthesize?.report as Report
    await deps.endRun(runId, { status: 'complete', report }, { brief, events: stepFinished() })
  } catch (error) {
    const reason = deadline.signal.aborted ? deadline.signal.reason : error
    if (reason instanceof RunCancelled) return
    const runError = toRunError(reason)
    if (!runError) throw error // infrastructure: let the job retry and resume from the checkpoint
    deps.log.warn({ runId, error: runError }, 'run failed')
    await deps.endRun(runId, { status: 'failed', error: runError }, { brief })
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

  search: searchStep,
  synthesize: synthesizeStep,

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
