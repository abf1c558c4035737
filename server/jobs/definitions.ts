import type { JobDefinition } from '#server/jobs/boss.ts'

/** Every job the app runs. Each queue is created at boot; workers run the handlers. */
export const jobDefinitions: JobDefinition<unknown>[] = []
