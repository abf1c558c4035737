// Reads the pages behind snippet-only results (the open sources, Brave, SearXNG give a line or two
// of each page) with the page reader, so the synthesis quotes the article and not the search
// engine's summary. A page that cannot be read keeps its snippet, and the run says why, once.
import type { PageReader } from '#server/providers/reader/page-reader.ts'
import type { SearchResult } from '#server/providers/types.ts'
import { mapWithConcurrency } from '#server/research/concurrency.ts'
import { readPassages } from '#server/research/passages.ts'

/** Pages read at once across every site (the reader allows two per site on top of this). */
const READ_CONCURRENCY = 6
/** A run reads at most this many pages of one site: one site's results should not be the run. */
const PER_SITE = 4

export type Found = SearchResult & { query: string }

export type PagesRead = {
  read: number
  /** Pages that kept their snippet, and why. */
  unread: Array<{ url: string; reason: string }>
}

/** What a run has tried to read so far, across its rounds of search. */
export type ReadState = { attempted: Set<string>; skipped: Set<string> }

export function newReadState(): ReadState {
  return { attempted: new Set(), skipped: new Set() }
}

/**
 * Reads the snippet-only results of `found` not yet tried, in the order found, until the run has
 * tried `limit` pages. Each read page's text becomes the article, bounded to
 * `maxCharacters` of the passages that matter most to the brief and the query that found it; its
 * date fills a result that had none.
 */
export async function readSnippetPages(
  found: Map<string, Found>,
  reader: PageReader,
  options: { brief: string; maxCharacters: number; limit: number; state: ReadState; signal: AbortSignal },
): Promise<PagesRead> {
  const { attempted, skipped } = options.state
  const perSite = new Map<string, number>()
  for (const url of attempted) bump(perSite, siteOf(url))
  const unread: PagesRead['unread'] = []
  const toRead: Found[] = []
  for (const result of found.values()) {
    if (!result.snippetOnly || attempted.has(result.url) || skipped.has(result.url)) continue
    if (attempted.size >= options.limit) break
    const site = siteOf(result.url)
    if ((perSite.get(site) ?? 0) >= PER_SITE) {
      skipped.add(result.url)
      unread.push({ url: result.url, reason: `the run reads at most ${PER_SITE} pages of one site` })
      continue
    }
    attempted.add(result.url)
    bump(perSite, site)
    toRead.push(result)
  }
  let read = 0
  // By page, in the order the pages were chosen: not in the order their reads happen to end.
  const notRead: Array<PagesRead['unread'][number] | undefined> = []
  await mapWithConcurrency(toRead, READ_CONCURRENCY, async (result, index) => {
    const page = await reader.read(result.url, { signal: options.signal })
    if (!page.ok) {
      notRead[index] = { url: result.url, reason: page.reason }
      return
    }
    const text = passagesOf(page.text, result.query, options)
    // A page whose article is shorter than the engine's snippet says less than the snippet did.
    if (text.length <= result.text.length) {
      notRead[index] = { url: result.url, reason: 'its article text is no longer than the snippet' }
      return
    }
    found.set(result.url, {
      ...result,
      title: result.title || page.title,
      text,
      publishedDate: result.publishedDate ?? page.publishedDate,
      snippetOnly: false,
    })
    read += 1
  })
  for (const entry of notRead) if (entry) unread.push(entry)
  return { read, unread }
}

/** A long article's passages that matter most to the brief and the query, in page order. */
function passagesOf(text: string, query: string, options: { brief: string; maxCharacters: number }): string {
  if (text.length <= options.maxCharacters) return text
  const [page] = readPassages([{ url: '', text, query }], options.brief, options.maxCharacters).pages
  return page?.text ?? text.slice(0, options.maxCharacters)
}

/** What a person would call the site: the host without `www.`. */
function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '')
  } catch {
    return url
  }
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1)
}

/**
 * The warning a run gives for the pages it could not read: how many, and the commonest reasons with
 * a site each, so a person can tell robots.txt from a dead site. Null when every page was read.
 */
export function unreadWarning(unread: PagesRead['unread']): string | null {
  if (unread.length === 0) return null
  const byReason = new Map<string, string[]>()
  for (const page of unread) byReason.set(page.reason, [...(byReason.get(page.reason) ?? []), siteOf(page.url)])
  const reasons = [...byReason.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 3)
    .map(
      ([reason, sites]) =>
        `${reason} (${[...new Set(sites)].slice(0, 2).join(', ')}${sites.length > 1 ? `; ${sites.length} pages` : ''})`,
    )
  const pages = unread.length === 1 ? '1 page' : `${unread.length} pages`
  return `${pages} could not be read and keep${unread.length === 1 ? 's' : ''} the search engine's snippet: ${reasons.join('; ')}.`
}
