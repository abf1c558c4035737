import { stepLabel } from '#app/components/step-timeline.tsx'
import { QUEUED_STEP, type RunStatus } from '#server/vocabulary/runs.ts'
import type { SeriesState } from '#server/vocabulary/series.ts'

export type BadgeStatus = RunStatus | Extract<SeriesState, 'sleeping' | 'paused'>

// Each status has its own symbol and word as well as its colour, so it reads without colour too.
const BADGES: Record<BadgeStatus, { label: string; symbol: string; className: string }> = {
  running: { label: 'Running', symbol: '●', className: 'border-sky-300 bg-sky-50 text-sky-900' },
  complete: { label: 'Complete', symbol: '✓', className: 'border-emerald-300 bg-emerald-50 text-emerald-900' },
  failed: { label: 'Failed', symbol: '✕', className: 'border-red-300 bg-red-50 text-red-900' },
  cancelled: { label: 'Cancelled', symbol: '–', className: 'border-slate-300 bg-slate-100 text-slate-800' },
  sleeping: { label: 'Sleeping', symbol: '☾', className: 'border-amber-300 bg-amber-50 text-amber-900' },
  paused: { label: 'Paused', symbol: '⏸', className: 'border-slate-300 bg-white text-slate-800' },
}

/** A run's status as a labelled pill; a running run names the step it is on, or says it is queued. */
export function StatusBadge({ status, step }: { status: BadgeStatus; step?: string | null }) {
  const badge = BADGES[status]
  // A run no worker has taken yet is not running anything: it says so.
  const queued = status === 'running' && step === QUEUED_STEP
  return (
    <span
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-medium ${badge.className}`}
    >
      <span aria-hidden="true" className={status === 'running' ? 'motion-safe:animate-pulse' : undefined}>
        {badge.symbol}
      </span>
      {queued ? 'Queued' : badge.label}
      {status === 'running' && step && !queued ? <span className="font-normal">· {stepLabel(step)}</span> : null}
    </span>
  )
}
