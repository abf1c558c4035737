// This browser's earlier trial runs, newest first.
import { Link } from 'react-router'
import { formatTime } from '#app/components/trial-run.tsx'
import type { RunListItem } from '#server/runs/contract.ts'

const STATUS_WORDS: Record<RunListItem['status'], string> = {
  running: 'Running',
  complete: 'Complete',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

export function TrialRunList({ runs, currentRunId }: { runs: RunListItem[]; currentRunId?: string }) {
  return (
    <section aria-labelledby="trial-runs-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="trial-runs-heading" className="font-medium">
        Your trial runs
      </h2>
      {runs.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">None yet. Runs you start here are listed for this browser only.</p>
      ) : (
        <ul className="mt-3 flex flex-col divide-y divide-slate-100">
          {runs.map((run) => (
            <li key={run.runId} className="py-2">
              <Link
                to={`/trial?run=${run.runId}`}
                aria-current={run.runId === currentRunId ? 'page' : undefined}
                className="block rounded-sm font-medium break-words text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-700 aria-[current=page]:text-slate-900 aria-[current=page]:no-underline"
              >
                {run.topic}
              </Link>
              <p className="text-xs text-slate-500">
                {STATUS_WORDS[run.status]} · {formatTime(run.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
