// What a run changed against the topic's memory: each updated claim as what memory held (struck
// through) and what the run found, contradicted ones with what memory held before, new findings,
// each with the quote that supports it, and how many claims were only confirmed.
import { ClaimQuote, PageLinks } from '#app/components/claim-quote.tsx'
import { Citation, ReportMarkdown } from '#app/components/report-markdown.tsx'
import { changeCounts } from '#server/research/report-summary.ts'
import type { Report, ReportChange, ReportFinding, ReportNewFinding } from '#server/research/report-types.ts'

type Delta = Report['delta']

export function DeltaPanel({
  delta,
  sourceUrls,
  judged,
}: {
  delta: Delta
  sourceUrls: string[]
  /** Said under the counts when rules alone compared the changes with memory (rulesJudged). */
  judged?: string | undefined
}) {
  const sourceCount = sourceUrls.length
  const changed = delta.updated.length + delta.contradicted.length + delta.newFindings.length
  return (
    <section aria-labelledby="delta-heading" className="rounded-lg border border-indigo-200 bg-indigo-50/60 p-4 sm:p-6">
      <h2 id="delta-heading" className="text-lg font-semibold text-slate-900">
        {delta.baseline ? 'Baseline' : `What changed since ${day(delta.since) ?? 'the last run'}`}
      </h2>
      {delta.baseline ? (
        <>
          <p className="mt-2 text-slate-800">
            {delta.summary || 'First run on this topic: everything in the report is new.'} Later runs on this topic skip
            what this one read and report only what changed.
          </p>
          {delta.newFindings.length > 0 ? (
            <details className="mt-3">
              <summary className="cursor-pointer font-medium text-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700">
                The {count(delta.newFindings.length, 'finding')} and the words that support them
              </summary>
              <FindingList findings={delta.newFindings} sourceCount={sourceCount} />
            </details>
          ) : null}
        </>
      ) : changed > 0 ? (
        <>
          <p className="mt-2 text-slate-800">{changeCounts(delta)}</p>
          {judged ? <p className="mt-1 text-sm text-slate-700">{judged}</p> : null}
          <ChangeGroup id="delta-updated" title="Updated" changes={delta.updated} sourceCount={sourceCount} />
          <ChangeGroup
            id="delta-contradicted"
            title="Contradicted"
            changes={delta.contradicted}
            sourceCount={sourceCount}
          />
          {delta.newFindings.length > 0 ? (
            <>
              <h3 id="delta-new" className="mt-4 font-semibold text-slate-900">
                New
              </h3>
              <FindingList findings={delta.newFindings} sourceCount={sourceCount} labelledBy="delta-new" />
            </>
          ) : null}
          {delta.confirmed > 0 ? <p className="mt-4 text-sm text-slate-700">{confirmedLine(delta.confirmed)}</p> : null}
        </>
      ) : (
        <div className="mt-2">
          <ReportMarkdown markdown={delta.summary} sourceUrls={sourceUrls} />
        </div>
      )}
    </section>
  )
}

function ChangeGroup({
  id,
  title,
  changes,
  sourceCount,
}: {
  id: string
  title: 'Updated' | 'Contradicted'
  changes: ReportChange[]
  sourceCount: number
}) {
  if (changes.length === 0) return null
  return (
    <>
      <h3 id={id} className="mt-4 font-semibold text-slate-900">
        {title}
      </h3>
      <ul aria-labelledby={id} className="mt-2 flex flex-col gap-4">
        {changes.map((change) => (
          <li key={`${change.previous.text}→${change.text}`} className="flex min-w-0 flex-col gap-1">
            <p className="break-words text-slate-600">
              <span className="font-medium text-slate-700">{title === 'Updated' ? 'Was:' : 'Previously:'}</span>{' '}
              {title === 'Updated' ? <del>{change.previous.text}</del> : change.previous.text}{' '}
              <span className="text-sm">
                (seen {day(change.previous.seenAt) ?? 'earlier'}
                {change.previous.urls.length > 0 ? ' on ' : null}
                <PageLinks urls={change.previous.urls} />)
              </span>
            </p>
            <p className="break-words text-slate-900">
              <span className="font-medium">Now:</span> {change.text}{' '}
              <Citations sources={change.sources} count={sourceCount} />
            </p>
            <ClaimQuote quote={change.quote} />
          </li>
        ))}
      </ul>
    </>
  )
}

function FindingList({
  findings,
  sourceCount,
  labelledBy,
}: {
  findings: Array<ReportFinding | ReportNewFinding>
  sourceCount: number
  labelledBy?: string
}) {
  return (
    <ul aria-labelledby={labelledBy} className="mt-2 flex flex-col gap-3">
      {findings.map((finding) => (
        <li key={finding.text} className="flex min-w-0 flex-col gap-1">
          <p className="break-words text-slate-900">
            {finding.text} <Citations sources={finding.sources} count={sourceCount} />
          </p>
          <ClaimQuote quote={finding.quote} />
          {'memoryHeld' in finding && finding.memoryHeld ? (
            <p className="break-words text-sm text-slate-600">
              Memory held: {finding.memoryHeld.text} (the rules could not tell whether this repeats or reverses it)
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

function Citations({ sources, count }: { sources: number[]; count: number }) {
  return (
    <>
      {sources
        .filter((n) => n >= 1 && n <= count)
        .map((n) => (
          <Citation key={n} n={n} />
        ))}
    </>
  )
}

function confirmedLine(confirmed: number): string {
  return `${count(confirmed, 'claim')} confirmed: memory already held ${confirmed === 1 ? 'it' : 'them'}, so ${confirmed === 1 ? 'it is' : 'they are'} not listed again.`
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function day(iso: string | null): string | undefined {
  return iso ? iso.slice(0, 10) : undefined
}
