// startRun: the one way a brief becomes a run, for every surface. The run row, its job and its first
// event are written in one transaction, so a run never exists without the job that will run it, and
// a start that cannot write them all fails as a whole (RunNotQueuedError), leaving nothing behind.
import type { Db } from '#db/database.ts'
import type { RunStart } from '#server/contracts/run.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { RESEARCH_RUN } from '#server/jobs/queues.ts'
import type { MemoryContext } from '#server/memory/store.ts'
import { topicAtStart } from '#server/repositories/runs.ts'
import type { Brief } from '#server/research/brief.ts'
import { createRun } from '#server/research/runs.ts'
import { createSeries } from '#server/research/series.ts'

export type RunDeadlines = { quickSeconds: number; deepSeconds: number }

export type StartRunDeps = { db: Db; jobs: Jobs; memory: MemoryContext; deadlines: RunDeadlines }

export type { RunStart }

/**
 * The run could not be queued: the job system is stopped, the database is short of disk, or writing
 * the run failed. Nothing was written; the same brief can be sent again later (503 + Retry-After).
 */
export class RunNotQueuedError extends Error {
  readonly retryAfterSeconds = 30
  constructor(reason: string, options?: ErrorOptions) {
    super(`The run could not be queued: ${reason}`, options)
    this.name = 'RunNotQueuedError'
  }
}

/**
 * Starts a run. A recurring brief creates its series with this run as slot 0; a woken series passes
 * `series` and `trx` (the transaction that claimed the slot, opened by jobs.transaction), so claim
 * and run commit together, and the run's worker is woken once they have.
 */
export async function startRun(
  deps: StartRunDeps,
  accountId: string,
  brief: Brief,
  options: { series?: { id: string; slot: number }; trx?: Db } = {},
): Promise<RunStart> {
  // Before anything is written: a run accepted now would sit "running" without ever making progress.
  const blocked = await deps.jobs.blocked()
  if (blocked) throw new RunNotQueuedError(blocked)
  if (options.trx) {
    // The caller's transaction: its caller fails (and its job retries) as a whole.
    return { ...(await writeRun(deps, accountId, brief, options)), status: 'running' }
  }
  try {
    return { ...(await writeRun(deps, accountId, brief, { series: options.series })), status: 'running' }
  } catch (error) {
    throw new RunNotQueuedError(error instanceof Error ? error.message : String(error), { cause: error })
  }
}

async function writeRun(
  deps: StartRunDeps,
  accountId: string,
  brief: Brief,
  options: { series?: { id: string; slot: number }; trx?: Db },
): Promise<Omit<RunStart, 'status'>> {
  const { ring } = deps.memory
  const topicHash = deps.memory.topicIndex.hash(accountId, brief.topic)
  const topic = await topicAtStart(deps.db, accountId, topicHash, deps.memory.now())
  const runCount = topic.completedRuns
  // Live memory sealed with a key this server holds; whether it opens, the run finds when it loads
  // it. Nothing is opened to start a run.
  const hasMemory = topic.memoryKeyId !== null && ring.keys.has(topic.memoryKeyId)
  const seconds = brief.depth === 'quick' ? deps.deadlines.quickSeconds : deps.deadlines.deepSeconds
  const insert = async (trx: Db) => {
    const series =
      options.series ?? (brief.recurring ? { id: await createSeries(trx, ring, accountId, brief), slot: 0 } : undefined)
    const id = await createRun(trx, ring, {
      series,
      accountId,
      brief,
      topicHash,
      hasMemory,
      priorRunCount: runCount,
      deadlineAt: new Date(Date.now() + seconds * 1000),
    })
    // pg-boss answers null, not an error, for a job it skipped; a run without its job would never run.
    if (!(await deps.jobs.send(RESEARCH_RUN, { runId: id }, { trx }))) {
      throw new Error('the job system did not take the job')
    }
    return id
  }
  const runId = options.trx ? await insert(options.trx) : await deps.jobs.transaction(deps.db, insert)
  return { runId, hasMemory, runCount }
}
