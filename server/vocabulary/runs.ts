// The words of a run, written once: the runs table, the API, MCP, the pages and the event streams
// all use these lists. The vocabulary imports nothing of the server (an import rule holds it).
import { z } from 'zod'

/** A run's status: it runs until it ends complete, failed or cancelled. */
export const RUN_STATUSES = ['running', 'complete', 'failed', 'cancelled'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

/**
 * What `currentStep` says of a running run no worker has taken yet: it waits in the queue, for a free
 * worker or for one of its account's runs to end (RUNS_PER_ACCOUNT).
 */
export const QUEUED_STEP = 'queued'

/** Where a brief came from: the first three a client may say; the others Sextant sets itself. */
export const BRIEF_SOURCES = ['api', 'dashboard', 'mcp', 'slack', 'github', 'trial', 'schedule'] as const
export type BriefSource = (typeof BRIEF_SOURCES)[number]
export const CLIENT_BRIEF_SOURCES = ['api', 'dashboard', 'mcp'] as const satisfies readonly BriefSource[]

/** The kinds of event a run writes as it goes. */
export const RUN_EVENT_TYPES = [
  'run_started',
  'step_started',
  'step_finished',
  'query_done',
  'pages_read',
  'warning',
  'complete',
  'failed',
  'cancelled',
] as const
export type RunEventType = (typeof RUN_EVENT_TYPES)[number]

export const FINAL_EVENT_TYPES = ['complete', 'failed', 'cancelled'] as const satisfies readonly RunEventType[]

/** A final event is the last a run writes: streams close after it. */
export function isFinalEvent(type: string): boolean {
  return (FINAL_EVENT_TYPES as readonly string[]).includes(type)
}

/** An event of a run, as the event log keeps it, the streams send it and the API describes it. */
export const RunEventSchema = z.object({
  id: z.int().describe('Increases within a run; the SSE `id:` line, and what Last-Event-ID resumes after.'),
  runId: z.uuid(),
  type: z.enum(RUN_EVENT_TYPES),
  step: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.iso.datetime(),
})
export type RunEvent = z.infer<typeof RunEventSchema>
