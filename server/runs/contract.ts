// A run as the API and MCP show it: its status, the view of one run, a page of the list, the answer to
// a start, and the events of its progress. The types are inferred from these schemas; the OpenAPI
// document and the MCP output schemas render them.
import { z } from 'zod'
import { RecurringInfoSchema } from '#server/series/contract.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { ReportSchema } from '#server/vocabulary/report.ts'
import { RUN_EVENT_TYPES, RUN_STATUSES } from '#server/vocabulary/runs.ts'

const timestamp = () => z.iso.datetime()

export const RunStatusSchema = z.enum(RUN_STATUSES)

export const RunErrorSchema = z.object({ code: z.string(), message: z.string() })

const runFields = {
  runId: z.uuid(),
  topic: z.string(),
  status: RunStatusSchema,
  // The string is described inside `nullable`, so JSON Schema gives `anyOf` rather than a list of
  // types, which MCP's strict clients warn on.
  currentStep: z
    .string()
    .describe('A step of the run.')
    .nullable()
    .describe('The step in progress while the run is running; null otherwise.'),
  source: z.string().describe('Where the brief came from.'),
  createdAt: timestamp(),
  finishedAt: timestamp().nullable(),
  error: RunErrorSchema.optional().describe('Why the run failed.'),
}

export const RunViewSchema = z.object({
  ...runFields,
  brief: BriefSchema,
  report: ReportSchema.optional().describe('Present once the run is complete.'),
  recurring: RecurringInfoSchema.optional().describe('For a run of a recurring brief: its series.'),
})

export const RunListItemSchema = z.object({ ...runFields, depth: z.string(), recurring: z.boolean() })

export const RunListPageSchema = z.object({
  runs: z.array(RunListItemSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
})

export const RunStartSchema = z.object({
  runId: z.uuid(),
  status: z.literal('running'),
  hasMemory: z.boolean().describe('Whether this topic had memory to build on.'),
  runCount: z.int().describe('Completed runs of this topic before this one.'),
})

export const RunEventSchema = z.object({
  id: z.int().describe('Increases within a run; the SSE `id:` line, and what Last-Event-ID resumes after.'),
  runId: z.uuid(),
  type: z.enum(RUN_EVENT_TYPES),
  step: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: timestamp(),
})

export type RunError = z.infer<typeof RunErrorSchema>
export type RunView = z.infer<typeof RunViewSchema>
export type RunListItem = z.infer<typeof RunListItemSchema>
export type RunListPage = z.infer<typeof RunListPageSchema>
export type RunStart = z.infer<typeof RunStartSchema>
export type RunEvent = z.infer<typeof RunEventSchema>
