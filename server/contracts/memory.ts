// What the memory check answers (spec 2.4): a topic's counts, clear in the database, never its content.
import { z } from 'zod'

export const MemoryStatsSchema = z.object({
  runCount: z.int(),
  urlsIndexed: z.int(),
  factsStored: z.int(),
  lastRunAt: z.iso.datetime(),
})

export type MemoryStats = z.infer<typeof MemoryStatsSchema>
