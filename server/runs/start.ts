// startRun: the one way a brief becomes a run, for every surface. The run row, its job and its first
// event are written in one transaction, so a run never exists without the job that will run it, and
// a start that cannot write them all fails as a whole (RunNotQueuedError), leaving nothing behind.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { RunMemory } from '#server/research/run-context.ts'
import type { RunStart } from '#server/runs/contract.ts'
import { queueRunJob } from '#server/runs/queue.ts'
import { createRun } from '#server/runs/record.ts'
import { type RunSeals, topicAtStart } from '#server/runs/repository/runs.ts'
import type { Brief } from '#server/vocabulary/brief.ts'

/**
 * A run's time limit by depth, counted from when a worker takes it, and how long it may wait in the
 * queue for one (`queueSeconds`): a run not finished by queued + queue + limit fails whatever became
 * of it.
 */
export type RunDeadlines = { quickSeconds: number; deepSeconds: number; queueSeconds: number }

/** Makes a recurring brief's series in the transaction that starts its first run; answers its id. */
export type SeriesStarter = { create(trx: Db, accountId: string, brief: Brief): Promise<string> }

export type StartRunDeps = {
  db: Db
  jobs: Jobs
  /** The topic's memory, as a run asks for it (a port, filled by the topics module). */
  memory: RunMemory
  deadlines: RunDeadlines
  /** A recurring brief's first run makes its series (the series module's; a port, decision 063). */
  series: SeriesStarter
  /** The run's sealed columns' codecs (the runs repository's). */
  runSeals: RunSeals
}

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

/** What a start reads before it writes anything: whether work can be queued, and the topic as it stands. */
export type StartReads = {
  /** Why the job system takes no work now, or undefined. */
  blocked: string | undefined
  topicHash: Buffer
  topic: { completedRuns: number; memoryKeyId: string | null; accountRunning: number }
}

/**
 * The reads of a start. Admission begins them while the limits are counted (they write nothing, so
 * a refused start has changed nothing); startRun awaits them.
 */
export async function readBeforeStart(deps: StartRunDeps, accountId: string, brief: Brief): Promise<StartReads> {
  const topicHash = deps.memory.topicHash(accountId, brief.topic)
  const [blocked, topic] = await Promise.all([
    deps.jobs.blocked(),
    topicAtStart(deps.db, accountId, topicHash, deps.memory.now()),
  ])
  return { blocked, topicHash, topic }
}

/**
 * Starts a run. A recurring brief creates its series with this run as slot 0; a woken series passes
 * `series` and `trx` (the transaction that claimed the slot, opened by jobs.transaction), so claim
 * and run commit together, and the run's worker is woken once they have. `reads`: readBeforeStart's,
 * when the caller began them.
 */
export async function startRun(
  deps: StartRunDeps,
  accountId: string,
  brief: Brief,
  options: { series?: { id: string; slot: number }; trx?: Db; reads?: Promise<StartReads> } = {},
): Promise<RunStart> {
  const start = async (): Promise<RunStart> => {
    const reads = await (options.reads ?? readBeforeStart(deps, accountId, brief))
    // Before anything is written: a run accepted now would sit "running" without ever making progress.
    if (reads.blocked) throw new RunNotQueuedError(reads.blocked)
    return { ...(await writeRun(deps, accountId, brief, reads, options)), status: 'running' }
  }
  // The caller's transaction: its caller fails (and its job retries) as a whole.
  if (options.trx) return start()
  try {
    return await start()
  } catch (error) {
    throw notQueued(error)
  }
}

/** A start that failed to write, whatever the database said: the run was not queued, and nothing was written. */
export function notQueued(error: unknown): RunNotQueuedError {
  if (error instanceof RunNotQueuedError) return error
  return new RunNotQueuedError(error instanceof Error ? error.message : String(error), { cause: error })
}

async function writeRun(
  deps: StartRunDeps,
  accountId: string,
  brief: Brief,
  { topicHash, topic }: StartReads,
  options: { series?: { id: string; slot: number }; trx?: Db },
): Promise<Omit<RunStart, 'status'>> {
  const runCount = topic.completedRuns
  // Live memory sealed with a key this server holds; whether it opens, the run finds when it loads
  // it. Nothing is opened to start a run.
  const hasMemory = topic.memoryKeyId !== null && deps.memory.holdsKey(topic.memoryKeyId)
  const seconds = brief.depth === 'quick' ? deps.deadlines.quickSeconds : deps.deadlines.deepSeconds
  const insert = async (trx: Db) => {
    const series =
      options.series ?? (brief.recurring ? { id: await deps.series.create(trx, accountId, brief), slot: 0 } : undefined)
    const id = await createRun(trx, deps.runSeals, {
      series,
      accountId,
      brief,
      topicHash,
      hasMemory,
      priorRunCount: runCount,
      deadlineAt: new Date(Date.now() + (deps.deadlines.queueSeconds + seconds) * 1000),
      timeLimitSeconds: seconds,
    })
    await queueRunJob(deps.jobs, { runId: id, accountId, accountRunning: topic.accountRunning, trx })
    return id
  }
  const runId = options.trx ? await insert(options.trx) : await deps.jobs.transaction(deps.db, insert)
  return { runId, hasMemory, runCount }
}
