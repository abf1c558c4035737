// A run's job on the research queue: sent when the run starts, and again when a worker found its
// account with as many runs going as it may have.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { RESEARCH_RUN } from '#server/jobs/queues.ts'

/** An account's runs beyond this many going all queue alike (pg-boss priorities are integers). */
const MAX_QUEUE_RANK = 1_000_000

/**
 * Queues a run's job: when it is started, and again when a worker found its account with as many
 * runs going as it may have (`startAfter`). Fair to every account (decision 039): workers take jobs
 * by priority, then age, and a run queues behind every other account's runs with fewer going, so an
 * account's thousandth run waits for another's first. Its group is its account: a worker fetches
 * none of an account's jobs while it has RUNS_PER_ACCOUNT going. pg-boss answers null, not an error,
 * for a job it skipped; a run without its job would never run.
 */
export async function queueRunJob(
  jobs: Jobs,
  run: { runId: string; accountId: string; accountRunning: number; trx?: Db; startAfter?: number },
): Promise<void> {
  const priority = -Math.min(run.accountRunning, MAX_QUEUE_RANK)
  const sent = await jobs.send(
    RESEARCH_RUN,
    { runId: run.runId },
    { trx: run.trx, priority, group: run.accountId, startAfter: run.startAfter },
  )
  if (!sent) throw new Error('the job system did not take the job')
}
