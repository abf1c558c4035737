// A run as the API and MCP show it: its status, the view of one run, a page of the list, the answer to
// a start, and the events of its progress. The types are inferred from these schemas; the OpenAPI
// document and the MCP output schemas render them.
import { z } from 'zod'
import { RecurringInfoSchema } from '#server/series/contract.ts'
import { type Brief, BriefSchema } from '#server/vocabulary/brief.ts'
import { type Report, ReportSchema } from '#server/vocabulary/report.ts'
import { RUN_STATUSES, type RunEvent, RunEventSchema, type RunEventType } from '#server/vocabulary/runs.ts'

export { type RunEvent, RunEventSchema }

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
    .describe(
      "The step in progress while the run is running: `queued` while it waits for a worker (every worker busy, or as many of the account's runs going as it may have at once), null for the moment between a worker taking it and its first step; null once it has ended.",
    ),
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

export type RunError = z.infer<typeof RunErrorSchema>
export type RunView = z.infer<typeof RunViewSchema>
export type RunListItem = z.infer<typeof RunListItemSchema>
export type RunListPage = z.infer<typeof RunListPageSchema>
export type RunStart = z.infer<typeof RunStartSchema>

/** A run's end, as what it owes (chat, webhooks, email) sees it. */
export type RunEnd = {
  runId: string
  accountId: string
  outcome: RunOutcome
  /** The run's recurring brief, if it has one. */
  seriesId: string | null
  /** Where its brief came from (`slack`, `github`, `api`, ...). */
  source: string
  /** The event types the account's active webhook endpoints take (none: no endpoint to ask for). */
  webhookEvents: string[]
  /** Its brief, when whoever ended the run had it open (the engine does); else read where needed. */
  brief?: Brief
  /**
   * Whether to tell anyone: false only for a complete run of a series whose `notify` is 'changes'
   * when its delta has nothing new, updated or contradicted. Such a run is recorded (its status,
   * report and memory), not delivered. Failures and cancellations are always told.
   */
  worthTelling: boolean
}

/**
 * Called in the transaction that ends a run (`Trx`, the database's), after its status and final event
 * are written (jobs it sends there are woken once that commits).
 */
export type RunEndHook<Trx> = (trx: Trx, end: RunEnd) => Promise<void>

export type RunOutcome =
  | { status: 'complete'; report: Report }
  | { status: 'failed'; error: RunError }
  /** At the account's request: only its own run. */
  | { status: 'cancelled'; accountId: string }

/** How many of a run's claims are new, updated or contradicted: what a person monitoring the topic hears. */
export function changeCount(report: Report): number {
  const { delta } = report
  return delta.newFindings.length + delta.updated.length + delta.contradicted.length
}

export function changedAnything(report: Report): boolean {
  return changeCount(report) > 0
}

/** An event a run writes: its type, the step it belongs to, and its data (sealed as stored). */
export type NewEvent = { type: RunEventType; step?: string | null; data?: Record<string, unknown> }

/** What whoever ends a run brings to its end (`Trx`, the database's transaction, for its last step). */
export type RunEndKnown<Trx> = {
  /** The run's brief, when it is open at hand (the engine's is). */
  brief?: Brief
  /**
   * Events written just before the final one, in the same statement: the engine's last
   * step_finished. A step boundary of its own would store a checkpoint the end clears at once.
   */
  events?: NewEvent[]
  /**
   * The engine's last step (saving memory), done in the end's transaction once the run is known to
   * be ending, so the run and what it taught memory commit together or not at all. It answers the
   * events written after `events` and before the final one. If it throws, nothing of the end is
   * written and endRun throws its error.
   */
  lastStep?: (trx: Trx) => Promise<NewEvent[]>
}
