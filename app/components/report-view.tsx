// A complete run's report: the summary, what is new since the last run, the numbered sources the
// citations point to, and how it was made.
import { Citation, ReportMarkdown, safeHref } from '#app/components/report-markdown.tsx'
import type { Report } from '#server/research/report-types.ts'

export function ReportView({ report }: { report: Report }) {
  const sourceUrls = report.sources.map((source) => source.url)
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="report-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="report-heading" className="sr-only">
          Report
        </h2>
        <ReportMarkdown markdown={report.summary} sourceUrls={sourceUrls} headingLevel={3} />
      </section>
      <DeltaPanel delta={report.delta} sourceUrls={sourceUrls} />
      <SourcesList sources={report.sources} />
      <ReportFooter report={report} />
    </div>
  )
}

function DeltaPanel({ delta, sourceUrls }: { delta: Report['delta']; sourceUrls: string[] }) {
  const sourceCount = sourceUrls.length
  const sinceDate = delta.since?.slice(0, 10)
  return (
    <section aria-labelledby="delta-heading" className="rounded-lg border border-indigo-200 bg-indigo-50/60 p-4 sm:p-6">
      <h2 id="delta-heading" className="text-lg font-semibold text-slate-900">
        {delta.baseline ? 'Baseline' : `New since ${sinceDate ?? 'the last run'}`}
      </h2>
      {delta.baseline ? (
        <p className="mt-2 text-slate-800">
          {delta.summary || 'First run on this topic: everything above is new.'} Later runs on this topic skip what this
          one read and report only what changed.
        </p>
      ) : delta.newFindings.length > 0 ? (
        <>
          <p className="mt-2 text-slate-800">
            {delta.newFindings.length === 1 ? '1 finding' : `${delta.newFindings.length} findings`} that memory did not
            hold before this run:
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-800">
            {delta.newFindings.map((finding) => (
              <li key={finding.text}>
                {finding.text}{' '}
                {finding.sources
                  .filter((n) => n >= 1 && n <= sourceCount)
                  .map((n) => (
                    <Citation key={n} n={n} />
                  ))}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <div className="mt-2">
          <ReportMarkdown markdown={delta.summary} sourceUrls={sourceUrls} />
        </div>
      )}
    </section>
  )
}

function SourcesList({ sources }: { sources: Report['sources'] }) {
  return (
    <section aria-labelledby="sources-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id="sources-heading" className="text-lg font-semibold text-slate-900">
        Sources
      </h2>
      {sources.length === 0 ? (
        <p className="mt-2 text-slate-600">This run cited no sources.</p>
      ) : (
        <ol className="mt-3 flex flex-col gap-4">
          {sources.map((source) => {
            const href = safeHref(source.url)
            return (
              <li key={source.n} id={`source-${source.n}`} className="flex scroll-mt-4 gap-3 target:bg-yellow-50">
                <span className="w-8 shrink-0 text-right font-mono text-sm text-slate-500">[{source.n}]</span>
                <div className="min-w-0">
                  <p className="font-medium break-words">
                    {href ? (
                      <a
                        href={href}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="text-indigo-700 underline hover:text-indigo-900"
                      >
                        {source.title || source.url}
                        <span className="sr-only"> (opens in a new tab)</span>
                      </a>
                    ) : (
                      source.title || source.url
                    )}
                  </p>
                  <p className="text-xs break-all text-slate-500">
                    {hostOf(source.url)}
                    {source.publishedAt ? <> · published {source.publishedAt.slice(0, 10)}</> : null}
                  </p>
                  {source.snippet ? <p className="mt-1 text-sm text-slate-700">{source.snippet}</p> : null}
                </div>
              </li>
            )
          })}
        </ol>
      )}
    </section>
  )
}

function ReportFooter({ report }: { report: Report }) {
  const { generatedWith, usage } = report
  const tokens = usage.inputTokens + usage.outputTokens
  return (
    <footer className="flex flex-col gap-1 border-t border-slate-200 pt-4 text-xs text-slate-600">
      <p>
        {generatedWith.synthesisKind === 'extractive'
          ? 'Written by the extractive synthesizer (no language model).'
          : `Written by ${generatedWith.synthesis}.`}{' '}
        {generatedWith.plan === 'fallback' ? 'Queries from the fallback plan.' : 'Queries planned by the model.'}{' '}
        Searched with {generatedWith.search}.
      </p>
      <p>
        {usage.searchCalls === 1 ? '1 search call' : `${usage.searchCalls} search calls`}
        {tokens > 0
          ? ` · ${usage.inputTokens.toLocaleString('en')} input and ${usage.outputTokens.toLocaleString('en')} output tokens`
          : null}
        {usage.costDollars !== null ? ` · about $${usage.costDollars.toFixed(4)}` : null}
      </p>
    </footer>
  )
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url
}
