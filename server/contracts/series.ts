// A recurring brief as the API shows it, and what a run of one says about its series.
import { z } from 'zod'
import { BriefSchema } from '#server/research/brief.ts'

const timestamp = () => z.iso.datetime()

/** sleeping: waits for its next run; running: a run is under way; paused and cancelled as set. */
export const SeriesStateSchema = z.enum(['sleeping', 'running', 'paused', 'cancelled'])

export const RecurringInfoSchema = z.object({
  seriesId: z.uuid(),
  state: SeriesStateSchema,
  nextRunAt: timestamp()
    .nullable()
    .describe('When the next run starts; null while one runs, or when paused or stopped.'),
})

export const SeriesViewSchema = z.object({
  seriesId: z.uuid(),
  topic: z.string(),
  brief: BriefSchema,
  state: SeriesStateSchema,
  nextRunAt: timestamp().nullable(),
  createdAt: timestamp(),
  lastRunId: z.uuid().nullable(),
})

export type SeriesState = z.infer<typeof SeriesStateSchema>
export type RecurringInfo = z.infer<typeof RecurringInfoSchema>
export type SeriesView = z.infer<typeof SeriesViewSchema>
