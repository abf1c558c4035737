// A topic page's "What the latest run added" (its new, updated and contradicted facts, and how many
// it confirmed) and the history of facts later ones replaced, collapsed.
import { Link } from 'react-router'
import { ClaimQuote } from '#app/components/claim-quote.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { FactDates, FactList, FactSources, linkClass, plural } from '#app/components/topic-facts.tsx'
import type { loadTopicPage } from '#app/topics.server.ts'
import { countPhrases } from '#server/research/report-summary.ts'

type TopicPage = NonNullable<Awaited<ReturnType<typeof loadTopicPage>>>

export function TopicDelta({ delta, firstRun }: { delta: TopicPage['delta']; firstRun: boolean }) {
  return (
    <section aria-labelledby="delta-heading" className="rounded-lg border border-indigo-200 bg-indigo-50/60 p-4 sm:p-6">
      <h2 id="delta-heading" className="text-lg font-semibold">
        What the latest run added
      </h2>
      {delta ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {delta.runId ? (
              <Link to={`/dashboard/runs/${delta.runId}`} className={linkClass}>
                The run of <LocalTime iso={delta.at} />
              </Link>
            ) : (
              <>
                The run of <LocalTime iso={delta.at} />
              </>
            )}{' '}
            added {plural(delta.factCount, 'fact')} and {plural(delta.sources.length, 'source')}
            {firstRun ? ': everything below came from it.' : '.'}
          </p>
          {firstRun ? null : <p className="mt-1 text-sm text-slate-600">{breakdown(delta)}</p>}
          {firstRun ? null : (
            <>
              <DeltaGroup id="delta-updated" title="Updated" facts={delta.updated} />
              <DeltaGroup id="delta-contradicted" title="Contradicted" facts={delta.contradicted} />
              <DeltaGroup id="delta-new" title="New" facts={delta.newFacts} />
            </>
          )}
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">No run is recorded in this memory.</p>
      )}
    </section>
  )
}

/** "1 new, 1 updated and 1 contradicted; it confirmed 2 facts memory already held." */
function breakdown(delta: NonNullable<TopicPage['delta']>): string {
  const parts = countPhrases([
    [delta.newFacts.length, 'new'],
    [delta.updated.length, 'updated'],
    [delta.contradicted.length, 'contradicted'],
  ])
  const changed =
    parts.length === 0
      ? 'Nothing it found was new'
      : parts.length === 1
        ? `${parts[0]}`
        : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
  const confirmed = delta.confirmed > 0 ? `; it confirmed ${plural(delta.confirmed, 'fact')} memory already held` : ''
  return `${changed.charAt(0).toUpperCase()}${changed.slice(1)}${confirmed}.`
}

function DeltaGroup({ id, title, facts }: { id: string; title: string; facts: TopicPage['facts'] }) {
  if (facts.length === 0) return null
  return (
    <div className="mt-4">
      <h3 id={id} className="mb-2 font-semibold text-slate-900">
        {title}
      </h3>
      <FactList facts={facts} empty="" />
    </div>
  )
}

/** Facts later runs replaced, behind a disclosure: what memory held before, and what replaced it. */
export function TopicHistory({ history }: { history: TopicPage['history'] }) {
  if (history.length === 0) return null
  return (
    <section aria-labelledby="history-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="history-heading" className="text-lg font-semibold">
        History <span className="font-normal text-slate-500">({plural(history.length, 'replaced fact')})</span>
      </h2>
      <details className="mt-3">
        <summary className="cursor-pointer font-medium text-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700">
          What memory held before later runs updated or contradicted it
        </summary>
        <ul className="mt-3 divide-y divide-slate-200">
          {history.map((fact) => (
            <li key={fact.id} className="flex min-w-0 flex-col gap-1.5 py-3 first:pt-0 last:pb-0">
              <p className="break-words text-slate-700">{fact.text}</p>
              <ClaimQuote quote={fact.quote} />
              {fact.replacedBy ? (
                <p className="break-words text-sm text-slate-600">
                  <span className="font-medium text-slate-700">
                    {fact.replacedBy.change === 'updated' ? 'Updated' : 'Contradicted'}{' '}
                    <LocalTime iso={fact.replacedBy.at} />:
                  </span>{' '}
                  {fact.replacedBy.text}
                </p>
              ) : null}
              <FactSources sources={fact.sources} />
              <FactDates fact={fact} />
            </li>
          ))}
        </ul>
      </details>
    </section>
  )
}
