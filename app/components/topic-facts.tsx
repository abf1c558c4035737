// Facts and sources of topic memory, each with where it came from: a fact with its quote, what it
// replaced (old -> new), when first and last seen. Shared by the topic, search and compare pages, so
// a fact reads the same wherever it appears.
import { Link } from 'react-router'
import { ClaimQuote } from '#app/components/claim-quote.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import type { TextPart } from '#app/topics.server.ts'
import { corpusPagePath } from '#server/text/corpus-url.ts'
import { safeHref } from '#server/text/markdown/link-policy.ts'
import type { FactView, FirstSeenView, PlainFactView, SourceView } from '#server/topics/contract.ts'

export const linkClass =
  'text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700'

/** A source as an external link (http and https only), or as text when it cannot be one. */
export function SourceAnchor({ source }: { source: Pick<SourceView, 'url' | 'label'> }) {
  const href = safeHref(source.url)
  if (!href) return <span className="break-words">{source.label}</span>
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClass} break-words`}>
      {source.label}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  )
}

function FirstSeen({ firstSeen }: { firstSeen: FirstSeenView }) {
  return (
    <>
      First seen <LocalTime iso={firstSeen.at} />
      {firstSeen.runId ? (
        <>
          {' '}
          in{' '}
          <Link to={`/dashboard/runs/${firstSeen.runId}`} className={linkClass}>
            this run
          </Link>
        </>
      ) : null}
    </>
  )
}

/** When a fact was first seen, and last confirmed when a later run found it again. */
export function FactDates({ fact }: { fact: Pick<PlainFactView, 'firstSeen' | 'lastConfirmed'> }) {
  return (
    <p className="text-xs text-slate-500">
      <FirstSeen firstSeen={fact.firstSeen} />
      {fact.lastConfirmed > fact.firstSeen.at ? (
        <>
          {' '}
          · last confirmed <LocalTime iso={fact.lastConfirmed} />
        </>
      ) : null}
    </p>
  )
}

/**
 * One fact: what it replaced (struck through when it was an update), its text (or the given parts,
 * with matched words marked), its quote, its sources, when it was learned and last confirmed.
 */
export function FactItem({
  fact,
  parts,
  children,
}: {
  fact: FactView
  parts?: TextPart[]
  children?: React.ReactNode
}) {
  return (
    <li className="flex min-w-0 flex-col gap-1.5 py-3 first:pt-0 last:pb-0">
      {fact.replaced ? <Replaced replaced={fact.replaced} /> : null}
      <p className="break-words text-slate-900">
        {fact.replaced ? <span className="font-medium">Now: </span> : null}
        {parts
          ? parts.map((part, index) =>
              part.match ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: parts never reorder
                <mark key={index} className="rounded-sm bg-amber-100 px-0.5 font-medium text-slate-950">
                  {part.text}
                </mark>
              ) : (
                part.text
              ),
            )
          : fact.text}
      </p>
      <ClaimQuote quote={fact.quote} />
      {children}
      <FactSources sources={fact.sources} />
      <FactDates fact={fact} />
    </li>
  )
}

/** The fact memory held before: "Was:" struck through for an update, "Previously:" for a contradiction. */
function Replaced({ replaced }: { replaced: NonNullable<FactView['replaced']> }) {
  const label = replaced.change === 'updated' ? 'Was:' : 'Previously:'
  const { previous } = replaced
  return (
    <div className="break-words text-sm text-slate-600">
      <span className="font-medium text-slate-700">{label}</span>{' '}
      {previous ? (
        <>
          {replaced.change === 'updated' ? <del>{previous.text}</del> : previous.text} (last seen{' '}
          <LocalTime iso={previous.lastConfirmed} />
          {previous.sources.length > 0 ? (
            <>
              ; <FactSourceLinks sources={previous.sources} />
            </>
          ) : null}
          )
        </>
      ) : (
        <>{replaced.change === 'updated' ? 'an earlier figure' : 'the opposite'}, no longer in memory</>
      )}
    </div>
  )
}

/** A fact's sources as one wrapped line of links. */
export function FactSources({ sources }: { sources: readonly SourceView[] }) {
  if (sources.length === 0) return <p className="text-sm text-slate-500">No source recorded.</p>
  return (
    <div className="text-sm text-slate-600">
      {sources.length === 1 ? 'Source:' : 'Sources:'} <FactSourceLinks sources={sources} />
    </div>
  )
}

function FactSourceLinks({ sources }: { sources: readonly SourceView[] }) {
  return (
    <ul className="inline">
      {sources.map((source, index) => (
        <li key={source.url} className="inline">
          <SourceAnchor source={source} />
          {index < sources.length - 1 ? '; ' : null}
        </li>
      ))}
    </ul>
  )
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

export function FactList({ facts, empty }: { facts: readonly FactView[]; empty: string }) {
  if (facts.length === 0) return <p className="text-sm text-slate-600">{empty}</p>
  return (
    <ul className="divide-y divide-slate-200">
      {facts.map((fact) => (
        <FactItem key={fact.id} fact={fact} />
      ))}
    </ul>
  )
}

export function SourceList({ sources, empty }: { sources: readonly SourceView[]; empty: string }) {
  if (sources.length === 0) return <p className="text-sm text-slate-600">{empty}</p>
  return (
    <ul className="divide-y divide-slate-200">
      {sources.map((source) => (
        <li key={source.url} className="flex flex-col gap-0.5 py-3 first:pt-0 last:pb-0">
          <p className="font-medium">
            <SourceAnchor source={source} />
          </p>
          {source.label !== source.url ? (
            // A corpus document is shown at its page here: its name (https://corpus.local/...) opens nothing.
            <p className="text-xs break-all text-slate-500">{corpusPagePath(source.url) ?? source.url}</p>
          ) : null}
          <p className="text-xs text-slate-500">
            {source.publishedDate ? <>Published {source.publishedDate.slice(0, 10)} · </> : null}
            <FirstSeen firstSeen={source.firstSeen} />
          </p>
        </li>
      ))}
    </ul>
  )
}
