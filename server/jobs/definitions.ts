import { z } from 'zod'
import type { IntegrationSettings } from '#server/integrations/deliver.ts'
import { integrationJobs } from '#server/integrations/jobs.ts'
import { purgeReceipts } from '#server/integrations/receipts.ts'
import { defineJob, type JobDefinition, type Jobs } from '#server/jobs/boss.ts'
import type { Limits } from '#server/limits/policies.ts'
import type { Logger } from '#server/logger.ts'
import { type MemoryContext, purgeExpiredMemory } from '#server/memory/store.ts'
import { type EngineDeps, runResearch } from '#server/research/pipeline.ts'
import type { RunOutcome } from '#server/research/run-end.ts'
import { overdueRuns } from '#server/research/runs.ts'
import { claimSlot, SERIES_WAKE_QUEUE } from '#server/research/series.ts'
import { RESEARCH_QUEUE, type RunDeadlines, startRun } from '#server/research/start-run.ts'

export type JobDeps = {
  memory: MemoryContext
  engine: Omit<EngineDeps, 'endRun'>
  deadlines: RunDeadlines
  concurrency: number
  /** Ends a run with all its end owes (server/start.ts composes it): the engine and the sweeper end runs. */
  endRun: (runId: string, outcome: RunOutcome) => Promise<boolean>
  /** The job system these definitions are registered with: handlers send follow-up jobs through it. */
  jobs: Jobs
  log: Logger
  /** Where Slack and GitHub are, and the links back to this server that messages carry. */
  integrations: IntegrationSettings
  /** Mentions start runs, within their limits. */
  limits: Limits
}

// Cron queues run often; their finished jobs are not worth keeping for long.
const CRON_RETENTION = { deleteAfterSeconds: 3600 }
const EVENT_RETENTION_DAYS = 30
// Slack retries for minutes and GitHub redeliveries are by hand, usually within days; a month covers both.
const RECEIPT_RETENTION_DAYS = 30

/** Every job the app runs. Each queue is created at boot; workers run the handlers and schedules. */
export function createJobDefinitions(deps: JobDeps): JobDefinition<unknown>[] {
  const db = deps.memory.db
  const startRunDeps = { db, jobs: deps.jobs, memory: deps.memory, deadlines: deps.deadlines }
  return [
    defineJob({
      queue: RESEARCH_QUEUE,
      schema: z.object({ runId: z.uuid() }),
      concurrency: deps.concurrency,
      queueOptions: {
        // A worker that dies stops its heartbeat; the job is retried (and resumes from its
        // checkpoint) on another worker within about half a minute.
        heartbeatSeconds: 10,
        retryLimit: 5,
        retryDelay: 1,
        retryBackoff: true,
        expireInSeconds: deps.deadlines.deepSeconds + 120,
        notify: true,
      },
      // A run whose job failed on a database error resumes in seconds, not at the 30 s backstop poll.
      notifyPollingIntervalSeconds: 5,
      async handler({ runId }) {
        await runResearch({ ...deps.engine, endRun: deps.endRun }, runId)
      },
    }),
    defineJob({
      queue: SERIES_WAKE_QUEUE,
      schema: z.object({ seriesId: z.uuid(), slot: z.number().int().min(0) }),
      queueOptions: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
      // The next run of a recurring brief: exactly one per slot, in the transaction that claims it.
      async handler({ seriesId, slot }) {
        await db.transaction().execute(async (trx) => {
          const claimed = await claimSlot(trx, deps.memory.ring, seriesId, slot)
          if (!claimed) return
          await startRun(startRunDeps, claimed.accountId, claimed.brief, { series: { id: seriesId, slot }, trx })
        })
        deps.jobs.wake(RESEARCH_QUEUE)
      },
    }),
    defineJob({
      queue: 'runs.sweep',
      schema: z.unknown(),
      schedule: '* * * * *',
      queueOptions: CRON_RETENTION,
      // Whatever happened to its worker, a run past its deadline ends as failed, never stuck "running".
      async handler() {
        for (const runId of await overdueRuns(db, new Date())) {
          const error = {
            code: 'deadline_exceeded',
            message: 'The run did not finish within its time limit (its worker may have stopped). Try again.',
          }
          await deps.endRun(runId, { status: 'failed', error })
        }
      },
    }),
    defineJob({
      queue: 'memory.purge',
      schema: z.unknown(),
      schedule: '17 3 * * *', // daily, off the hour
      queueOptions: CRON_RETENTION,
      async handler() {
        const purged = await purgeExpiredMemory(db, deps.memory.now())
        deps.log.info({ purged }, 'purged expired topic memory')
      },
    }),
    defineJob({
      queue: 'events.purge',
      schema: z.unknown(),
      schedule: '37 3 * * *',
      queueOptions: CRON_RETENTION,
      // Run events feed live progress; a month later the report and status say all that matters.
      async handler() {
        const cutoff = new Date(Date.now() - EVENT_RETENTION_DAYS * 86_400_000)
        const result = await db.deleteFrom('run_events').where('created_at', '<', cutoff).executeTakeFirst()
        deps.log.info({ deleted: Number(result.numDeletedRows) }, 'purged old run events')
      },
    }),
    defineJob({
      queue: 'webhooks.purge',
      schema: z.unknown(),
      schedule: '47 3 * * *',
      queueOptions: CRON_RETENTION,
      async handler() {
        const purged = await purgeReceipts(db, new Date(Date.now() - RECEIPT_RETENTION_DAYS * 86_400_000))
        deps.log.info({ purged }, 'purged old webhook receipts')
      },
    }),
    ...integrationJobs({
      ...startRunDeps,
      limits: deps.limits,
      ring: deps.memory.ring,
      log: deps.log,
      settings: deps.integrations,
    }),
  ]
}
