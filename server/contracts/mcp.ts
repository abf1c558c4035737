// What the MCP tools answer as structured content: each tool's output schema, beside the REST API's
// view schemas it is made of. The tools' answers are checked against them when they are built
// (`ok` in server/mcp/tool-context.ts) and by the MCP SDK when they are sent.
import { z } from 'zod'
import { RunStartSchema, RunStatusSchema, RunViewSchema } from '#server/runs/contract.ts'
import { MemoryStatsSchema } from '#server/topics/contract.ts'
import { ReportSchema } from '#server/vocabulary/report.ts'

/** The structured content a tool whose output schema is `Output` (a zod object, or its shape) answers. */
export type ToolOutput<Output extends z.ZodRawShape | z.ZodType> = Output extends z.ZodType
  ? z.output<Output>
  : Output extends z.ZodRawShape
    ? z.output<z.ZodObject<Output>>
    : never

// The output schemas are the REST API's view schemas (server/contracts), or parts of them.
export const RunStatusOutput = RunViewSchema.pick({
  runId: true,
  topic: true,
  status: true,
  currentStep: true,
  createdAt: true,
  finishedAt: true,
  error: true,
})
export const RunStartOutput = RunStartSchema.extend({
  status: RunStatusSchema,
  currentStep: RunViewSchema.shape.currentStep.optional(),
})
export const RunReportOutput = ReportSchema.pick({
  summary: true,
  delta: true,
  sources: true,
  integrity: true,
  generatedWith: true,
  notice: true,
}).extend({ runId: RunViewSchema.shape.runId, topic: RunViewSchema.shape.topic })

const FactOutput = z.object({
  id: z.string().describe('Stable id of the fact; `supersedes.id` and `supersededBy` refer to it.'),
  text: z.string(),
  quote: z.string().describe("Words of a source page, verbatim, that support it ('' for facts stored before quotes)."),
  sourceUrls: z.array(z.string()),
  firstSeen: z.string().describe('When a run first found it (ISO).'),
  lastConfirmed: z.string().describe('When a run last found it still said (ISO).'),
})
const ChangeOutput = FactOutput.extend({
  previous: FactOutput.nullable().describe('The fact memory held before; null when it has since left memory.'),
})

export const TopicMemoryOutput = {
  topic: z.string(),
  stats: MemoryStatsSchema,
  facts: z
    .array(
      FactOutput.extend({
        supersedes: z
          .object({ id: z.string(), change: z.enum(['updated', 'contradicted']) })
          .optional()
          .describe('The fact in `history` this one replaced: a changed figure or date, or the opposite claim.'),
      }),
    )
    .describe('What memory holds true now.'),
  history: z
    .array(FactOutput.extend({ supersededBy: z.string().describe('The id of the fact that replaced it.') }))
    .describe('Facts a later one updated or contradicted: not current.'),
  sources: z.array(
    z.object({
      url: z.string(),
      title: z.string(),
      publishedDate: z.string().describe('When the page was published, as the source dates it.').nullable(),
    }),
  ),
  notice: z
    .string()
    .optional()
    .describe('Said first when some of the sources are invented sample articles, not pages of the web.'),
}

export const TopicDeltaOutput = {
  runId: z.string(),
  at: z.string(),
  newFacts: z.array(FactOutput).describe('Facts memory held nothing about before the run.'),
  updated: z.array(ChangeOutput).describe('Facts that replaced one memory held with another figure or date.'),
  contradicted: z.array(ChangeOutput).describe('Facts that say the opposite of one memory held.'),
  confirmed: z.int().describe('Facts memory already held that the run found again.'),
  facts: z
    .array(z.object({ text: z.string(), sourceUrls: z.array(z.string()) }))
    .describe('Every fact the run added: new, updated and contradicted together.'),
  sources: z.array(z.object({ url: z.string(), title: z.string() })).describe('Sources first read in the run.'),
  notice: z
    .string()
    .optional()
    .describe('Said first when some of the sources are invented sample articles, not pages of the web.'),
}

export const CompareTopicsOutput = {
  topics: z.array(z.string()),
  summary: z.record(z.string(), z.number()),
  sharedSources: z.array(z.string()),
  sharedFacts: z.array(z.object({ a: z.string(), b: z.string() })),
  onlyA: z.array(z.string()),
  onlyB: z.array(z.string()),
}

export const SearchMemoryOutput = {
  results: z.array(
    z.object({ topic: z.string(), fact: z.string(), sourceUrls: z.array(z.string()), score: z.number() }),
  ),
}

export const ExportTopicOutput = { topic: z.string(), markdown: z.string() }
