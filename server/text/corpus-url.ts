// Where a document of the local corpus can be read. A document indexed without a URL of its own is
// known by `https://corpus.local/<path>`: a stable name for the ledger and memory, but not an address
// anyone can open. It is shown at `/corpus/<path>` on this server instead (app/routes/corpus-document.tsx).
// No imports at all: pages use this in the browser too, and the markdown link policy (every
// renderer's) needs it, so it sits with the text below the providers that index the corpus.

export const CORPUS_HOST = 'corpus.local'
const PAGE_PREFIX = '/corpus'

/** The name of a corpus document indexed without a URL, from its path's segments in the folder. */
export function corpusDocumentUrl(segments: string[]): string {
  return `https://${CORPUS_HOST}/${segments.map(encodeURIComponent).join('/')}`
}

/** `/corpus/<path>` for a corpus document's name (`https://corpus.local/<path>`); undefined for any other URL. */
export function corpusPagePath(raw: string): string | undefined {
  const url = URL.parse(raw)
  if (url?.protocol !== 'https:' || url.host !== CORPUS_HOST || url.pathname === '/') return undefined
  return `${PAGE_PREFIX}${url.pathname}${url.search}`
}

/** A URL people can open: a corpus document's page on this server (from PUBLIC_URL), any other URL as it is. */
export function readableUrl(raw: string, publicUrl: string): string {
  const page = corpusPagePath(raw)
  return page ? `${publicUrl}${page}` : raw
}

/** The corpus document's name for a page path (`/corpus/<path>?<query>`), or undefined for another path. */
export function corpusUrlOfPage(pathAndQuery: string): string | undefined {
  if (!pathAndQuery.startsWith(`${PAGE_PREFIX}/`)) return undefined
  const url = URL.parse(`https://${CORPUS_HOST}${pathAndQuery.slice(PAGE_PREFIX.length)}`)
  return url && url.host === CORPUS_HOST ? url.href : undefined
}
