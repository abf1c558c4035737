// Preprints from arXiv through its API (`/api/query`), which answers in Atom: each entry's abstract
// page, title, first-version date and abstract, whole (so its results are not snippet-only). Errors come back as an Atom entry, with a 200.
import { XMLParser } from 'fast-xml-parser'
import { z } from 'zod'
import {
  createSourceClient,
  type OpenSourceOptions,
  type SourceAnswer,
} from '#server/providers/search/source-client.ts'
import { arxivAbsUrl, clip, significantWords } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'arXiv'
/**
 * arXiv's terms of use for its APIs: "no more than one request every three seconds", and a single
 * connection at a time (info.arxiv.org/help/api/tou.html).
 */
const MIN_INTERVAL_MS = 3000
/** Every term is ANDed: a long planned query would match nothing. */
const MAX_TERMS = 5

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  // Entries, links and authors repeat; one of them must still come back as a list.
  isArray: (name) => ['entry', 'link', 'author'].includes(name),
  parseTagValue: false,
  trimValues: true,
})

const text = z.union([z.string(), z.number()]).transform(String)
const FeedSchema = z.object({
  feed: z.object({
    entry: z
      .array(
        z.object({
          id: text,
          title: text.optional(),
          summary: text.optional(),
          published: text.optional(),
          link: z.array(z.object({ href: z.string(), rel: z.string().optional() })).optional(),
        }),
      )
      .optional(),
  }),
})

export function createArxivSearch(options: OpenSourceOptions): SearchProvider {
  const client = createSourceClient(
    { name: NAME, minIntervalMs: MIN_INTERVAL_MS, accept: 'application/atom+xml' },
    options,
  )
  return {
    name: NAME,
    async search(query, { signal }) {
      const terms = significantWords(query.text, MAX_TERMS).map((word) => `all:${arxivTerm(word)}`)
      if (terms.length === 0) return { results: [] }
      if (query.startPublishedDate) {
        const from = query.startPublishedDate.slice(0, 10).replaceAll('-', '')
        const to = new Date().toISOString().slice(0, 10).replaceAll('-', '')
        terms.push(`submittedDate:[${from}0000 TO ${to}2359]`)
      }
      const params = {
        search_query: terms.join(' AND '),
        start: '0',
        max_results: String(Math.max(1, query.numResults)),
        // Within a date window the newest matter most; over all time, the best matches.
        sortBy: query.startPublishedDate ? 'submittedDate' : 'relevance',
        sortOrder: 'descending',
      }
      const results = await client.get('/api/query', params, (answer) => readFeed(answer, query.maxCharacters), signal)
      return { results: results.slice(0, query.numResults) }
    },
  }
}

/** A hyphenated word as arXiv's query syntax wants a phrase: quoted, the hyphen a space. */
function arxivTerm(word: string): string {
  return /[-'’]/.test(word) ? `"${word.replace(/[-'’]/g, ' ')}"` : word
}

function readFeed(answer: SourceAnswer, maxCharacters: number): SearchResult[] {
  let json: unknown
  try {
    json = parser.parse(answer.body)
  } catch (error) {
    throw new ProviderError(NAME, `${NAME} answered with XML that does not parse: ${(error as Error).message}`, {
      retryable: true,
    })
  }
  const parsed = FeedSchema.safeParse(json)
  if (!parsed.success) {
    throw new ProviderError(NAME, `${NAME}'s answer was not an Atom feed: ${parsed.error.message}`, {
      retryable: false,
    })
  }
  const entries = parsed.data.feed.entry ?? []
  const error = entries.find((entry) => entry.id.includes('/api/errors'))
  if (error) {
    throw new ProviderError(NAME, `${NAME} refused the query: ${oneLine(error.summary ?? error.id)}`, {
      retryable: false,
    })
  }
  return entries.map((entry) => {
    const page = entry.link?.find((link) => link.rel === 'alternate')?.href ?? entry.id
    const title = oneLine(entry.title ?? '') || entry.id
    return {
      url: arxivAbsUrl(page) ?? page,
      title,
      publishedDate: entry.published ?? null,
      // The abstract is all the abstract page says (the paper is a PDF, which the reader does not
      // read): nothing to fetch.
      text: clip(oneLine(entry.summary ?? '') || title, maxCharacters),
      foundBy: NAME,
    }
  })
}

/** Atom titles and abstracts keep the submitter's line breaks. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim()
}
