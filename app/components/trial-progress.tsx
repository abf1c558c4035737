// Live progress of a trial run: the loader's events first, then the run's event stream until its
// final event, when the page reloads its data to show the report.
import { useEffect, useState } from 'react'
import { useRevalidator } from 'react-router'
import type { RunEvent, RunEventType } from '#server/events/run-events.ts'

// The pipeline's steps (server/research/pipeline.ts STEPS), named for people. Listed here rather
// than imported: the pipeline module would pull the whole engine into the browser bundle.
const STEPS = [
  { id: 'load_memory', label: 'Load what is known about the topic' },
  { id: 'plan', label: 'Plan search queries' },
  { id: 'search', label: 'Search the web' },
  { id: 'synthesize', label: 'Write the report' },
  { id: 'save_memory', label: 'Save memory for the next run' },
] as const

const EVENT_TYPES: RunEventType[] = [
  'run_started',
  'step_started',
  'step_finished',
  'query_done',
  'warning',
  'complete',
  'failed',
  'cancelled',
]
const FINAL: ReadonlySet<RunEventType> = new Set(['complete', 'failed', 'cancelled'])

type StepState = 'pending' | 'active' | 'done' | 'stopped'
type StepId = (typeof STEPS)[number]['id']

export function TrialProgress({ runId, events: loaded }: { runId: string; events: RunEvent[] }) {
  const [live, setLive] = useState<RunEvent[]>([])
  const revalidator = useRevalidator()
  const events = merge(loaded, live)
  const final = events.find((event) => FINAL.has(event.type))
  const lastId = events.at(-1)?.id ?? 0

  // biome-ignore lint/correctness/useExhaustiveDependencies: one stream per run, resumed after what the loader sent
  useEffect(() => {
    if (final) return
    const source = new EventSource(`/trial/runs/${runId}/events?lastEventId=${lastId}`)
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as RunEvent
      setLive((previous) => [...previous, event])
      if (FINAL.has(event.type)) {
        // Closed before the server ends the stream, or EventSource would reconnect.
        source.close()
        void revalidator.revalidate()
      }
    }
    for (const type of EVENT_TYPES) source.addEventListener(type, onEvent)
    return () => source.close()
  }, [runId, Boolean(final)])

  const states = stepStates(events, Boolean(final))
  const active = STEPS.find((step) => states[step.id] === 'active')
  const queries = events.filter((event) => event.type === 'query_done').length
  const warnings = events.filter((event) => event.type === 'warning')

  return (
    <section
      aria-labelledby="trial-progress-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="trial-progress-heading" className="text-lg font-semibold">
        Progress
      </h2>
      <p role="status" className="mt-1 text-sm text-slate-600">
        {statusLine(final?.type, active?.label)}
      </p>
      <ol className="mt-4 flex flex-col gap-2">
        {STEPS.map((step) => {
          const state = states[step.id]
          return (
            <li key={step.id} className="flex items-center gap-3">
              <StepIcon state={state} />
              <span
                className={
                  state === 'pending'
                    ? 'text-slate-500'
                    : state === 'active'
                      ? 'font-medium text-slate-900'
                      : state === 'stopped'
                        ? 'text-red-800'
                        : 'text-slate-800'
                }
              >
                {step.label}
                {step.id === 'search' && queries > 0 ? ` (${queries} ${queries === 1 ? 'query' : 'queries'})` : ''}
              </span>
              <span className="sr-only">: {STATE_WORDS[state]}</span>
            </li>
          )
        })}
      </ol>
      {warnings.length > 0 ? (
        <ul className="mt-4 flex flex-col gap-1 text-sm text-amber-800">
          {warnings.map((warning) => (
            <li key={warning.id}>{String(warning.data.message ?? 'A step reported a problem and carried on.')}</li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

const STATE_WORDS: Record<StepState, string> = {
  pending: 'not started',
  active: 'in progress',
  done: 'done',
  stopped: 'stopped',
}

function StepIcon({ state }: { state: StepState }) {
  if (state === 'done') {
    return (
      <span
        aria-hidden="true"
        className="flex size-6 shrink-0 items-center justify-center rounded-full bg-indigo-700 text-xs text-white"
      >
        ✓
      </span>
    )
  }
  if (state === 'stopped') {
    return (
      <span
        aria-hidden="true"
        className="flex size-6 shrink-0 items-center justify-center rounded-full bg-red-100 text-xs text-red-800"
      >
        ✕
      </span>
    )
  }
  if (state === 'active') {
    return (
      <span
        aria-hidden="true"
        className="size-6 shrink-0 animate-spin rounded-full border-2 border-indigo-200 border-t-indigo-700 motion-reduce:animate-none"
      />
    )
  }
  return <span aria-hidden="true" className="size-6 shrink-0 rounded-full border-2 border-slate-300" />
}

function statusLine(final: RunEventType | undefined, active: string | undefined): string {
  if (final === 'complete') return 'Done. The report is below.'
  if (final === 'failed') return 'The run stopped before it finished.'
  if (final === 'cancelled') return 'The run was cancelled.'
  return active ? `Working: ${active.toLowerCase()}…` : 'Starting…'
}

/** A step is done once it finished; one started but unfinished is active, or stopped once the run ended. */
function stepStates(events: RunEvent[], final: boolean): Record<StepId, StepState> {
  const states = Object.fromEntries(STEPS.map((step) => [step.id, 'pending'])) as Record<StepId, StepState>
  for (const event of events) {
    const step = STEPS.find((known) => known.id === event.step)?.id
    if (!step) continue
    if (event.type === 'step_finished') states[step] = 'done'
    else if (event.type === 'step_started' && states[step] !== 'done') states[step] = final ? 'stopped' : 'active'
  }
  return states
}

/** The loader's events and the stream's, once each and in order (a revalidation may repeat some). */
function merge(loaded: RunEvent[], live: RunEvent[]): RunEvent[] {
  const byId = new Map<number, RunEvent>()
  for (const event of [...loaded, ...live]) byId.set(event.id, event)
  return [...byId.values()].sort((a, b) => a.id - b.id)
}
