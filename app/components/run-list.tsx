import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import type { DashboardRun } from '#server/runs/service.ts'

/**
 * What changed in the list since it was last drawn, in words: a run that appeared, or one whose status
 * moved on. The list updates live; without this a screen reader hears none of it.
 */
function useListChanges(runs: readonly DashboardRun[]): string {
  const seen = useRef<Map<string, DashboardRun['status']> | undefined>(undefined)
  const [said, setSaid] = useState('')
  useEffect(() => {
    const before = seen.current
    seen.current = new Map(runs.map((run) => [run.runId, run.status]))
    if (!before) return
    const changes = runs.flatMap((run) => {
      const was = before.get(run.runId)
      if (was === undefined) return [`New run: ${run.topic}, ${STATUS_WORDS[run.status] ?? run.status}.`]
      return was !== run.status ? [`${run.topic}: ${STATUS_WORDS[run.status] ?? run.status}.`] : []
    })
    if (changes.length > 0) setSaid(changes.join(' '))
  }, [runs])
  return said
}

const STATUS_WORDS: Partial<Record<DashboardRun['status'], string>> = {
  running: 'running',
  complete: 'complete',
  failed: 'failed',
  cancelled: 'cancelled',
}

/** The account's newest runs. On a phone, depth and start time move under the topic. */
export function RunList({ runs }: { runs: readonly DashboardRun[] }) {
  const said = useListChanges(runs)
  const announcer = (
    <p aria-live="polite" className="sr-only" data-testid="run-list-changes">
      {said}
    </p>
  )
  if (runs.length === 0) {
    return (
      <div>
        {announcer}
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
          No research runs yet. Runs you start here, through the API or from chat appear in this list and update live.
        </p>
      </div>
    )
  }
  // The announcer stays the same element whichever of the two is shown, so it is heard when the first run appears.
  return (
    <div>
      {announcer}
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Your 20 newest research runs, newest first</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Topic
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Status
              </th>
              <th scope="col" className="hidden px-4 py-2 font-medium md:table-cell">
                Depth
              </th>
              <th scope="col" className="hidden px-4 py-2 font-medium md:table-cell">
                Started
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {runs.map((run) => (
              <tr key={run.runId} className="align-top hover:bg-slate-50">
                <td className="px-4 py-3">
                  <Link
                    to={`/dashboard/runs/${run.runId}`}
                    className="font-medium break-words text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-700"
                  >
                    {run.topic}
                  </Link>
                  <p className="mt-1 text-xs text-slate-500 md:hidden">
                    {depthLabel(run)} · <LocalTime iso={run.createdAt} />
                  </p>
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-col items-start gap-1">
                    <StatusBadge status={run.status} step={run.currentStep} />
                    {run.series ? (
                      <span className="flex flex-col items-start gap-0.5">
                        <StatusBadge status={run.series.state} />
                        {run.series.state === 'sleeping' && run.series.nextRunAt ? (
                          <span className="text-xs text-slate-500">
                            Next run <LocalTime iso={run.series.nextRunAt} />
                          </span>
                        ) : null}
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="hidden px-4 py-3 text-slate-700 md:table-cell">{depthLabel(run)}</td>
                <td className="hidden px-4 py-3 whitespace-nowrap text-slate-700 md:table-cell">
                  <LocalTime iso={run.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

function depthLabel(run: DashboardRun): string {
  const depth = run.depth === 'quick' ? 'Quick' : 'Deep'
  return run.recurring ? `${depth}, recurring` : depth
}
