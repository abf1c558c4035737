import { z } from 'zod'
import { appendRunEvent } from '#server/events/run-events.ts'
import { defineJob, type JobDefinition } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import { type MemoryContext, purgeExpiredMemory } from '#server/memory/store.ts'
import { type EngineDeps, runResearch } from '#server/research/pipeline.ts'
import { failRun, overdueRuns } from '#server/research/runs.ts'
import { RESEARCH_QUEUE, type RunDeadlines } from '#server/research/start-run.ts'

export type JobDeps = {
  memory: MemoryContext
  engine: EngineDeps
  deadlines: RunDeadlines
  concurrency: number
  log: Logger
}

/** Every job the app runs. Each queue is created at boot; workers run the handlers and schedules. */
export function createJobDefinitions(deps: JobDeps): JobDefinition<unknown>[] {
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
      async handler({ runId }) {
        await runResearch(deps.engine, runId)
      },
    }),
    defineJob({
      queue: 'runs.sweep',
      schema: z.unknown(),
      schedule: '* * * * *',
      // Whatever happened to its worker, a run past its deadline ends as failed, never stuck "running".
      async handler() {
        for (const runId of await overdueRuns(deps.memory.db, new Date())) {
          const error = {
            code: 'deadline_exceeded',
            message: 'The run did not finish within its time limit (its worker may have stopped). Try again.',
          }
          if (await failRun(deps.memory.db, runId, error)) {
            await appendRunEvent(deps.memory.db, { runId, type: 'failed', data: { error } })
          }
        }
      },
    }),
    defineJob({
      queue: 'memory.purge',
      // Scheduled jobs carry no data.
      schema: z.unknown(),
      schedule: '17 3 * * *', // daily, off the hour
      async handler() {
        const purged = await purgeExpiredMemory(deps.memory.db, deps.memory.now())
        deps.log.info({ purged }, 'purged expired topic memory')
      },
    }),
  ]
}
