// The five steps of a run (load memory, plan, search, synthesize, save memory) as a timeline built
// from the run's event log, with each search query and warning under the step that reported it.
import type { RunEvent } from '#server/runs/contract.ts'
import { QUEUED_STEP, type RunStatus } from '#server/vocabulary/runs.ts'

export type TimelineEvent = Pick<RunEvent, 'id' | 'type' | 'step' | 'data' | 'createdAt'>

// The engine's order (server/research/pipeline.ts STEPS), copied rather than imported: importing the
// pipeline would pull the whole engine into the browser bundle.
const STEPS = [
  { id: 'load_memory', label: 'Load memory', active: 'Loading memory' },
  { id: 'plan', label: 'Plan queries', active: 'Planning queries' },
  { id: 'search', label: 'Search', active: 'Searching' },
  { id: 'synthesize', label: 'Write the report', active: 'Writing the report' },
  { id: 'save_memory', label: 'Save memory', active: 'Saving memory' },
] as const

type StepState = 'pending' | 'active' | 'done' | 'failed' | 'stopped' | 'skipped'

/** What a running run is doing, in words: "Searching"; "Waiting for a worker" while it is queued. */
export function stepLabel(step: string): string {
  if (step === QUEUED_STEP) return 'Waiting for a worker'
  return STEPS.find((candidate) => candidate.id === step)?.active ?? step.replaceAll('_', ' ')
}

const STATE_TEXT: Record<StepState, string> = {
  pending: 'Waiting',
  active: 'In progress',
  done: 'Done',
  failed: 'Failed here',
  stopped: 'Stopped',
  skipped: 'Not reached',
}

const STATE_STYLE: Record<StepState, { symbol: string; marker: string; text: string }> = {
  pending: { symbol: '○', marker: 'border-slate-300 bg-white text-slate-400', text: 'text-slate-500' },
  active: { symbol: '●', marker: 'border-sky-600 bg-sky-50 text-sky-700', text: 'text-sky-800' },
  done: { symbol: '✓', marker: 'border-emerald-600 bg-emerald-600 text-white', text: 'text-emerald-800' },
  failed: { symbol: '✕', marker: 'border-red-600 bg-red-600 text-white', text: 'text-red-800' },
  stopped: { symbol: '–', marker: 'border-slate-500 bg-slate-200 text-slate-700', text: 'text-slate-700' },
  skipped: { symbol: '○', marker: 'border-slate-300 bg-white text-slate-400', text: 'text-slate-500' },
}

export function stepStates(events: readonly TimelineEvent[], status: RunStatus): Record<string, StepState> {
  const started = new Set<string>()
  const finished = new Set<string>()
  for (const event of events) {
    if (!event.step) continue
    if (event.type === 'step_started') started.add(event.step)
    if (event.type === 'step_finished') finished.add(event.step)
  }
  const states: Record<string, StepState> = {}
  for (const step of STEPS) {
    if (finished.has(step.id)) states[step.id] = 'done'
    else if (started.has(step.id)) {
      states[step.id] = status === 'running' ? 'active' : status === 'failed' ? 'failed' : 'stopped'
    } else states[step.id] = status === 'running' ? 'pending' : 'skipped'
  }
  return states
}

const ACTIVITY = new Set(['query_done', 'pages_read', 'warning'])

/**
 * The search step says what it searched, once it has started: the local corpus when the engine said
 * so as the step started, or fell back to it on an offline machine (a warning), or the report says
 * so (runs from before the step said it); else the web.
 */
export function searchStepLabel(events: readonly TimelineEvent[], reportSaysCorpus = false): string {
  const searching = events.filter((event) => event.step === 'search')
  if (searching.some((event) => event.type === 'warning' && event.data.code === 'offline_fallback')) {
    return 'Search the local corpus (the web was unreachable)'
  }
  if (reportSaysCorpus || searching.some((event) => event.type === 'step_started' && event.data.corpus === true)) {
    return 'Search the local corpus (not the web)'
  }
  return searching.some((event) => event.type === 'step_started') ? 'Search the web' : 'Search'
}

export function StepTimeline({
  events,
  status,
  reportSaysCorpus,
}: {
  events: readonly TimelineEvent[]
  status: RunStatus
  /** The run's report says it searched the local corpus. */
  reportSaysCorpus?: boolean
}) {
  const states = stepStates(events, status)
  return (
    <ol className="flex flex-col">
      {STEPS.map((step, index) => {
        const state = states[step.id] ?? 'pending'
        const style = STATE_STYLE[state]
        const finished = events.findLast((event) => event.type === 'step_finished' && event.step === step.id)
        const activity = events.filter((event) => event.step === step.id && ACTIVITY.has(event.type))
        const last = index === STEPS.length - 1
        return (
          <li key={step.id} className="relative flex gap-3 pb-5 last:pb-0">
            {last ? null : <span aria-hidden="true" className="absolute top-7 bottom-0 left-3 w-px bg-slate-200" />}
            <span
              aria-hidden="true"
              className={`relative flex size-6 shrink-0 items-center justify-center rounded-full border-2 text-xs font-bold ${style.marker} ${state === 'active' ? 'motion-safe:animate-pulse' : ''}`}
            >
              {style.symbol}
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">
                {step.id === 'search' ? searchStepLabel(events, reportSaysCorpus) : step.label}
              </p>
              <p className={`text-sm ${style.text}`}>
                {STATE_TEXT[state]}
                {finished && typeof finished.data.ms === 'number' ? ` · ${formatMs(finished.data.ms)}` : null}
              </p>
              {activity.length > 0 ? (
                <ul className="mt-1 flex flex-col gap-1 text-sm text-slate-700">
                  {activity.map((event) => (
                    <ActivityItem key={event.id} event={event} />
                  ))}
                </ul>
              ) : null}
            </div>
          </li>
        )
      })}
    </ol>
  )
}

function ActivityItem({ event }: { event: TimelineEvent }) {
  const data = event.data
  const query = typeof data.query === 'string' ? data.query : undefined
  if (event.type === 'query_done') {
    const results = typeof data.results === 'number' ? data.results : 0
    const fresh = typeof data.new === 'number' ? data.new : 0
    return (
      <li className="break-words">
        Searched “{query}”: {plural(results, 'result')}, {fresh} new
      </li>
    )
  }
  if (event.type === 'pages_read') {
    const read = typeof data.read === 'number' ? data.read : 0
    const unread = typeof data.unread === 'number' ? data.unread : 0
    return (
      <li className="break-words">
        Read {plural(read, 'page')}
        {unread > 0 ? `; ${unread} kept the search snippet` : ''}
      </li>
    )
  }
  const message = typeof data.message === 'string' ? data.message : 'Something went wrong in this step.'
  return (
    <li className="break-words rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
      <strong className="font-semibold">Warning:</strong> {message}
      {query ? <span className="text-amber-900"> (query “{query}”)</span> : null}
    </li>
  )
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
