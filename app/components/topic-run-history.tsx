import { Link } from 'react-router'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { linkClass, plural } from '#app/components/topic-facts.tsx'
import type { TopicRun } from '#app/topics.server.ts'

/** The topic's runs, newest first, with what each added to memory when it added anything. */
export function TopicRunHistory({ runs }: { runs: readonly TopicRun[] }) {
  if (runs.length === 0) return <p className="text-sm text-slate-600">No runs are recorded for this topic.</p>
  return (
    <ol className="divide-y divide-slate-200">
      {runs.map((run) => (
        <li key={run.runId} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Link to={`/dashboard/runs/${run.runId}`} className={`${linkClass} font-medium`}>
              <LocalTime iso={run.createdAt} />
            </Link>
            <StatusBadge status={run.status} step={run.currentStep} />
          </div>
          <p className="text-sm text-slate-600">
            {run.depth === 'quick' ? 'Quick' : 'Deep'}
            {run.counts ? (
              <>
                {' '}
                · {plural(run.counts.newFacts, 'new fact')}, {plural(run.counts.newSources, 'new source')},{' '}
                {plural(run.counts.urlsRead, 'URL')} read
              </>
            ) : null}
          </p>
        </li>
      ))}
    </ol>
  )
}
