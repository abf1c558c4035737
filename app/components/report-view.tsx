// A complete run's report: what changed since the last run (or, on a baseline, the summary first),
// the summary, the numbered sources the citations point to with the words each supports, and how
// it was made, with how many of the model's claims were shown.
import { ClaimQuote } from '#app/components/claim-quote.tsx'
import { DeltaPanel } from '#app/components/report-delta.tsx'
import { ReportMarkdown } from '#app/components/report-markdown.tsx'
import { rulesJudged, summaryWithoutChanges } from '#server/research/report-summary.ts'
import type { Report } from '#server/research/report-types.ts'
import { safeHref } from '#server/text/markdown/link-policy.ts'

export function ReportView({ report }: { report: Report }) {
  const sourceUrls = report.sources.map((source) => source.url)
  // A later run leads with what changed, shown once: as the delta's lists, not also as the summary's block.
  const delta = <DeltaPanel delta={report.delta} sourceUrls={sourceUrls} judged={rulesJudged(report)} />
  return (
    <div className="flex flex-col gap-6">
      {report.notice ? <CorpusNotice notice={report.notice} /> : null}
      {report.delta.baseline ? null : delta}
      <section aria-labelledby="report-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="report-heading" className="sr-only">
          Report
        </h2>
        <ReportMarkdown
          markdown={report.delta.baseline ? report.summary : summaryWithoutChanges(report.summary)}
          sourceUrls={sourceUrls}
          headingLevel={3}
        />
      </section>
      {report.delta.baseline ? delta : null}
      <SourcesList sources={report.sources} />
      <ReportFooter report={report} />
    </div>
  )
}

/** Before anything else: these sources are not from the web (invented, for the sample corpus). */
export function CorpusNotice({ notice }: { notice: string }) {
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <strong className="font-semibold">Not the web.</strong> {notice}
    </p>
  )
}

const CORPUS_LABEL = {
  sample: 'invented sample article, bundled with Sextant',
  local: "document of this server's local corpus",
} as const

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
                    {source.corpus ? CORPUS_LABEL[source.corpus] : hostOf(source.url)}
                    {source.publishedAt ? <> · published {source.publishedAt.slice(0, 10)}</> : null}
                  </p>
                  <ClaimQuote quote={source.snippet} className="mt-1" />
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
      {report.integrity.claims > 0 ? <p>{integrityLine(report.integrity)}</p> : null}
    </footer>
  )
}

/** "12 claims, 11 shown; 1 not shown because no page read holds its quote and figures." */
export function integrityLine(integrity: Report['integrity']): string {
  const { claims, shown, droppedUnsupported, recited, ownWords, offTopic } = integrity
  const parts = [`${claims === 1 ? '1 claim' : `${claims} claims`}, ${shown} shown`]
  if (droppedUnsupported > 0) {
    parts.push(
      droppedUnsupported === 1
        ? '1 not shown because no page read holds its quote and figures'
        : `${droppedUnsupported} not shown because no page read holds their quotes and figures`,
    )
  }
  if (offTopic > 0) {
    parts.push(
      offTopic === 1
        ? '1 not shown because the pages it cites are about something else'
        : `${offTopic} not shown because the pages they cite are about something else`,
    )
  }
  if (recited > 0) {
    parts.push(
      recited === 1
        ? '1 shown with the page that holds its quote instead of the one cited'
        : `${recited} shown with the pages that hold their quotes instead of the ones cited`,
    )
  }
  if (ownWords > 0) {
    parts.push(
      ownWords === 1
        ? "1 shown in the page's own words, because the model's wording stated what its quote does not"
        : `${ownWords} shown in the pages' own words, because the model's wording stated what their quotes do not`,
    )
  }
  return `${parts.join('; ')}.`
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url
}
