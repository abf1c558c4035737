// A recurring brief as the API shows it, and what a run of one says about its series.
import { z } from 'zod'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { SERIES_NOTIFY, SERIES_STATES } from '#server/vocabulary/series.ts'

const timestamp = () => z.iso.datetime()

/** sleeping: waits for its next run; running: a run is under way; paused and cancelled as set. */
export const SeriesStateSchema = z.enum(SERIES_STATES)

export const RecurringInfoSchema = z.object({
  seriesId: z.uuid(),
  state: SeriesStateSchema,
  nextRunAt: timestamp()
    .nullable()
    .describe('When the next run starts; null while one runs, or when paused or stopped.'),
})

export const CadenceSchema = z
  .object({
    every: z.string().nullable().describe('Time between runs, e.g. "6h"; null with cron, or for the default.'),
    cron: z.string().nullable().describe('A cron expression (minute hour day month weekday), read in timeZone.'),
    timeZone: z.string().nullable(),
  })
  .describe("How often it runs. Neither every nor cron: the server's default (7 days unless set otherwise).")

export const SeriesViewSchema = z.object({
  seriesId: z.uuid(),
  topic: z.string(),
  brief: BriefSchema,
  state: SeriesStateSchema,
  cadence: CadenceSchema,
  notify: z
    .enum(SERIES_NOTIFY)
    .describe('changes: a run whose delta has nothing new, updated or contradicted is recorded, not delivered.'),
  emailDigest: z
    .boolean()
    .describe("Each run worth telling is mailed to the account's verified addresses (see /api/email/addresses)."),
  nextRunAt: timestamp().nullable(),
  createdAt: timestamp(),
  lastRunId: z.uuid().nullable(),
})

export type SeriesState = z.infer<typeof SeriesStateSchema>
export type RecurringInfo = z.infer<typeof RecurringInfoSchema>
export type SeriesView = z.infer<typeof SeriesViewSchema>
export type CadenceView = z.infer<typeof CadenceSchema>
