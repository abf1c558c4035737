// The kinds of run event, in their own module so pages can import them without the database code.

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

export const FINAL_EVENT_TYPES: readonly RunEventType[] = ['complete', 'failed', 'cancelled']

/** A final event is the last a run writes: streams close after it. */
export function isFinalEvent(type: string): boolean {
  return (FINAL_EVENT_TYPES as readonly string[]).includes(type)
}
