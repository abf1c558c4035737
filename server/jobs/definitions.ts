import { z } from 'zod'
import { defineJob, type JobDefinition } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import { type MemoryContext, purgeExpiredMemory } from '#server/memory/store.ts'

export type JobDeps = { memory: MemoryContext; log: Logger }

/** Every job the app runs. Each queue is created at boot; workers run the handlers and schedules. */
export function createJobDefinitions(deps: JobDeps): JobDefinition<unknown>[] {
  return [
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
