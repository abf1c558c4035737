// Background and definitions from Wikipedia, through the MediaWiki Action API: a full-text search
// used as a generator, with each page's lead section as plain text (TextExtracts) and its URL, in
// one request (`/w/api.php?action=query&generator=search&prop=extracts|info`).
import { z } from 'zod'
import {
  createSourceClient,
  type OpenSourceOptions,
  type SourceAnswer,
} from '#server/providers/search/source-client.ts'
import { clip } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'Wikipedia'
/**
 * MediaWiki's API etiquette sets no number for reads but asks for requests "in series rather than
 * in parallel" (mediawiki.org/wiki/API:Etiquette): one at a time, and a second apart on top.
 */
const MIN_INTERVAL_MS = 1000
/** TextExtracts returns at most 20 lead sections per request. */
const MAX_EXTRACTS = 20

const QueryAnswerSchema = z.object({
  error: z.object({ code: z.string(), info: z.string().optional() }).optional(),
  query: z
    .object({
      pages: z.array(
        z.object({
          title: z.string(),
          index: z.number().optional(),
          extract: z.string().optional(),
          fullurl: z.string().optional(),
          missing: z.boolean().optional(),
        }),
      ),
    })
    .optional(),
})

export function createWikipediaSearch(options: OpenSourceOptions): SearchProvider {
  const client = createSourceClient({ name: NAME, minIntervalMs: MIN_INTERVAL_MS, accept: 'application/json' }, options)
  return {
    name: NAME,
    async search(query, { signal }) {
      const limit = String(Math.min(MAX_EXTRACTS, Math.max(1, query.numResults)))
      // No date filter: an encyclopedia article is background whatever the brief's window, and its
      // last edit says nothing of when what it says was published (publishedDate stays null).
      const params = {
        action: 'query',
        format: 'json',
        formatversion: '2',
        generator: 'search',
        gsrsearch: query.text,
        gsrnamespace: '0',
        gsrlimit: limit,
        prop: 'extracts|info',
        exintro: '1',
        explaintext: '1',
        exlimit: limit,
        inprop: 'url',
      }
      const results = await client.get('/w/api.php', params, (answer) => readPages(answer, query.maxCharacters), signal)
      return { results: results.slice(0, query.numResults) }
    },
  }
}

function readPages(answer: SourceAnswer, maxCharacters: number): SearchResult[] {
  let json: unknown
  try {
    json = JSON.parse(answer.body)
  } catch {
    throw new ProviderError(NAME, `${NAME} answered with something that is not JSON.`, { retryable: true })
  }
  const parsed = QueryAnswerSchema.safeParse(json)
  if (!parsed.success) {
    throw new ProviderError(NAME, `${NAME}'s answer was not a search result: ${parsed.error.message}`, {
      retryable: false,
    })
  }
  const { error, query } = parsed.data
  if (error) {
    // MediaWiki reports errors with a 200; "slow down" ones are worth another try.
    throw new ProviderError(NAME, `${NAME} refused the search (${error.code}): ${error.info ?? ''}`.trim(), {
      retryable: ['ratelimited', 'maxlag', 'readonly', 'internal_api_error_DBQueryError'].includes(error.code),
      ...(error.code === 'ratelimited' ? { status: 429 } : {}),
    })
  }
  // No `query` at all: nothing matched.
  return (query?.pages ?? [])
    .filter((page) => !page.missing && page.fullurl)
    .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
    .map((page) => ({
      url: page.fullurl as string,
      title: page.title,
      publishedDate: null,
      text: clip((page.extract ?? '').trim() || page.title, maxCharacters),
      snippetOnly: true,
      foundBy: NAME,
    }))
}
