import { LocalTime } from '#app/components/local-time.tsx'
import type { TopicSummary } from '#server/topics/contract.ts'

/** A topic's memory in numbers: runs, facts, sources, URLs read, and its last run and expiry. */
export function TopicStats({ summary, compact = false }: { summary: TopicSummary; compact?: boolean }) {
  const items: Array<[string, React.ReactNode]> = [
    ['Runs', summary.runCount],
    ['Facts', summary.factCount],
    ['Sources', summary.sourceCount],
    ['URLs read', summary.urlsIndexed],
    ['Last run', <LocalTime key="last" iso={summary.lastRunAt} />],
    ['Expires', <LocalTime key="expires" iso={summary.expiresAt} />],
  ]
  return (
    <dl
      className={
        compact
          ? 'grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4'
          : 'grid grid-cols-2 gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-3 lg:grid-cols-6'
      }
    >
      {items.map(([term, value], index) => (
        // The counts are short: on a compact card they share a row, the two dates take half each.
        <div key={term} className={`min-w-0 ${compact && index >= 4 ? 'sm:col-span-2' : ''}`}>
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
          <dd className={compact ? 'text-slate-900' : 'text-base font-medium text-slate-900'}>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
