// A finished trial run's report. The summary is model-written markdown, so it is rendered as React
// text (headings, bullets, bold, [n] citations) and never as HTML.
import type { Report } from '#server/research/report-types.ts'

export function TrialReport({ report }: { report: Report }) {
  return (
    <div className="flex flex-col gap-6">
      <section
        aria-labelledby="trial-summary-heading"
        className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="trial-summary-heading" className="text-lg font-semibold">
          Report
        </h2>
        <div className="mt-3">
          <Markdown text={report.summary} />
        </div>
      </section>

      <section aria-labelledby="trial-delta-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
        <h2 id="trial-delta-heading" className="text-lg font-semibold">
          {report.delta.baseline ? 'Baseline' : 'What changed'}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {report.delta.baseline
            ? 'The first run on this topic: everything it found is new, and the next run reports only changes.'
            : `Since the run of ${formatDate(report.delta.since)}.`}
        </p>
        <div className="mt-3">
          <Markdown text={report.delta.summary} />
        </div>
      </section>

      <section
        aria-labelledby="trial-sources-heading"
        className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
      >
        <h2 id="trial-sources-heading" className="text-lg font-semibold">
          Sources
        </h2>
        {report.sources.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">This run cited no sources.</p>
        ) : (
          <ol className="mt-3 flex flex-col gap-3">
            {report.sources.map((source) => (
              <li key={source.n} id={`trial-source-${source.n}`} className="flex gap-3 scroll-mt-4">
                <span className="w-7 shrink-0 text-right text-sm font-medium text-slate-500">[{source.n}]</span>
                <div className="min-w-0">
                  {isWebUrl(source.url) ? (
                    <a
                      href={source.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="font-medium break-words text-indigo-700 underline hover:text-indigo-900"
                    >
                      {source.title || source.url}
                    </a>
                  ) : (
                    <span className="font-medium break-words">{source.title || source.url}</span>
                  )}
                  <p className="truncate text-xs text-slate-500">
                    {hostOf(source.url)}
                    {source.publishedAt ? ` · ${formatDate(source.publishedAt)}` : ''}
                  </p>
                  {source.snippet ? <p className="mt-1 text-sm text-slate-700">{source.snippet}</p> : null}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  )
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'paragraph'; text: string }

/** Lines into blocks: `#` headings, `-`/`*`/`1.` lists, and paragraphs split by blank lines. */
function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = []
  for (const line of markdown.split(/\r?\n/)) {
    const trimmed = line.trim()
    const last = blocks.at(-1)
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed)
    const bullet = /^[-*+]\s+(.*)$/.exec(trimmed)
    const numbered = /^\d+[.)]\s+(.*)$/.exec(trimmed)
    if (!trimmed) {
      blocks.push({ kind: 'paragraph', text: '' })
    } else if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' })
    } else if (bullet || numbered) {
      const ordered = !bullet
      const item = (bullet ?? numbered)?.[1] ?? ''
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item)
      else blocks.push({ kind: 'list', ordered, items: [item] })
    } else if (last?.kind === 'paragraph' && last.text) {
      last.text += ` ${trimmed}`
    } else {
      blocks.push({ kind: 'paragraph', text: trimmed })
    }
  }
  return blocks.filter((block) => block.kind !== 'paragraph' || block.text)
}

function Markdown({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-3 leading-relaxed text-slate-800">
      {parseBlocks(text).map((block, index) => {
        const key = `${block.kind}-${index}`
        if (block.kind === 'heading') {
          // The page's own headings are h1 and h2, so the report's start at h3.
          const Heading = block.level <= 2 ? 'h3' : 'h4'
          return (
            <Heading key={key} className={block.level <= 2 ? 'text-base font-semibold' : 'text-sm font-semibold'}>
              <Inline text={block.text} />
            </Heading>
          )
        }
        if (block.kind === 'list') {
          const List = block.ordered ? 'ol' : 'ul'
          return (
            <List key={key} className={`${block.ordered ? 'list-decimal' : 'list-disc'} flex flex-col gap-1 pl-5`}>
              {block.items.map((item, itemIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the items are static text
                <li key={itemIndex}>
                  <Inline text={item} />
                </li>
              ))}
            </List>
          )
        }
        return (
          <p key={key}>
            <Inline text={block.text} />
          </p>
        )
      })}
    </div>
  )
}

/** **bold** and [n] citations, which link to the numbered source below. */
function Inline({ text }: { text: string }) {
  const parts = text.split(/(\*\*[^*]+\*\*|\[\d+\])/)
  return parts.map((part, index) => {
    const key = `${index}-${part}`
    const citation = /^\[(\d+)\]$/.exec(part)
    if (citation) {
      return (
        <a key={key} href={`#trial-source-${citation[1]}`} className="text-xs align-super text-indigo-700 no-underline">
          [{citation[1]}]
        </a>
      )
    }
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) {
      return <strong key={key}>{part.slice(2, -2)}</strong>
    }
    return part
  })
}

/** Sources come from the open web: anything but http(s), such as javascript:, is shown, not linked. */
function isWebUrl(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol)
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : url
}

function formatDate(iso: string | null): string {
  if (!iso) return 'an earlier date'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10)
}
