// The words of a page that support a claim, shown under it as the quote they are. Page text: React
// keeps it text, and bidirectional controls are removed so it cannot render reversed.
import { stripBidiControls } from '#server/text/bidi.ts'
import { CORPUS_HOST } from '#server/text/corpus-url.ts'
import { safeHref } from '#server/text/markdown/link-policy.ts'

export function ClaimQuote({ quote, className = '' }: { quote: string; className?: string }) {
  const text = stripBidiControls(quote).replace(/\s+/g, ' ').trim()
  if (!text) return null
  return (
    <blockquote className={`border-l-2 border-slate-300 pl-3 text-sm break-words text-slate-700 italic ${className}`}>
      <span className="sr-only">Quote from the source: </span>“{text}”
    </blockquote>
  )
}

/** Where a claim memory held was read: each page as a link named by its host and path. */
export function PageLinks({ urls }: { urls: readonly string[] }) {
  const links = urls.flatMap((url) => {
    const href = safeHref(url)
    return href ? [{ href, label: pageLabel(new URL(url)) }] : []
  })
  if (links.length === 0) return null
  return (
    <>
      {links.map((link, index) => (
        <span key={link.href}>
          {index > 0 ? ', ' : null}
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            className="break-all text-indigo-700 underline hover:text-indigo-900"
          >
            {link.label}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </span>
      ))}
    </>
  )
}

const PAGE_LABEL_CHARACTERS = 48

function pageLabel(url: URL): string {
  const host = url.host === CORPUS_HOST ? 'local corpus' : url.host
  const label = `${host}${url.pathname === '/' ? '' : url.pathname}`
  const chars = [...label]
  return chars.length > PAGE_LABEL_CHARACTERS ? `${chars.slice(0, PAGE_LABEL_CHARACTERS - 1).join('')}…` : label
}
