// startRun: the one way a brief becomes a run, for every surface. The run row and its job are
// written in one transaction, so a run never exists without the job that will run it.
import type { Db } from '#db/database.ts'
import { appendRunEvent } from '#server/events/run-events.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { checkTopicMemory, type MemoryContext } from '#server/memory/store.ts'
import type { Brief } from '#server/research/brief.ts'
import { countCompletedRuns, createRun } from '#server/research/runs.ts'
import { createSeries } from '#server/research/series.ts'

export type RunDeadlines = { quickSeconds: number; deepSeconds: number }

export type StartRunDeps = { db: Db; jobs: Jobs; memory: MemoryContext; deadlines: RunDeadlines }

export type RunStart = { runId: string; status: 'running'; hasMemory: boolean; runCount: number }

export const RESEARCH_QUEUE = 'research.run'

/**
 * Starts a run. A recurring brief creates its series with this run as slot 0; a woken series passes
 * `series` and `trx` (the transaction that claimed the slot), so claim and run commit together.
 */
export async function startRun(
  deps: StartRunDeps,
  accountId: string,
  brief: Brief,
  options: { series?: { id: string; slot: number }; trx?: Db } = {},
): Promise<RunStart> {
  const { ring } = deps.memory
  const topicHash = deps.memory.topicIndex.hash(accountId, brief.topic)
  const [memory, runCount] = await Promise.all([
    checkTopicMemory(deps.memory, accountId, brief.topic),
    countCompletedRuns(deps.db, accountId, topicHash),
  ])
  const seconds = brief.depth === 'quick' ? deps.deadlines.quickSeconds : deps.deadlines.deepSeconds
  const insert = async (trx: Db) => {
    const series =
      options.series ?? (brief.recurring ? { id: await createSeries(trx, ring, accountId, brief), slot: 0 } : undefined)
    const id = await createRun(trx, ring, {
      series,
      accountId,
      brief,
      topicHash,
      hasMemory: memory !== null,
      priorRunCount: runCount,
      deadlineAt: new Date(Date.now() + seconds * 1000),
    })
    await deps.jobs.sendInTransaction(trx, RESEARCH_QUEUE, { runId: id })
    return id
  }
  const runId = options.trx ? await insert(options.trx) : await deps.db.transaction().execute(insert)
  // In the caller's transaction when there is one: the run row is not visible outside it yet.
  await appendRunEvent(options.trx ?? deps.db, ring, {
    runId,
    type: 'run_started',
    data: { depth: brief.depth, source: brief.source },
  })
  deps.jobs.wake(RESEARCH_QUEUE)
  return { runId, status: 'running', hasMemory: memory !== null, runCount }
}
