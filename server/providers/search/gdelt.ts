// News from the whole world through the GDELT DOC 2.0 API (`/api/v2/doc/doc?mode=artlist`). GDELT
// gives each article's link, title and the time it first saw it, and no text: every result is
// snippet-only, and the page reader fetches the article.
import { z } from 'zod'
import {
  createSourceClient,
  type OpenSourceOptions,
  type SourceAnswer,
} from '#server/providers/search/source-client.ts'
import { dayStart, significantWords } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'GDELT'
/**
 * GDELT's own answer to faster clients is "Please limit requests to one every 5 seconds" (HTTP 429,
 * and sometimes as the body of a 200): that is its documented courtesy, so requests start 5 s apart.
 */
const MIN_INTERVAL_MS = 5000
/** The DOC API searches a rolling window of the last 3 months; artlist returns at most 250 articles. */
const WINDOW_DAYS = 90
const MAX_RECORDS = 250
/** GDELT ANDs every keyword and rejects ones shorter than 3 characters. */
const MAX_KEYWORDS = 5

const ArtListSchema = z.object({
  articles: z
    .array(
      z.object({
        url: z.string(),
        title: z.string().nullish(),
        seendate: z.string().nullish(),
        domain: z.string().nullish(),
      }),
    )
    .optional(),
})

export function createGdeltSearch(options: OpenSourceOptions): SearchProvider {
  const client = createSourceClient({ name: NAME, minIntervalMs: MIN_INTERVAL_MS, accept: 'application/json' }, options)
  const interval = options.minIntervalMs ?? MIN_INTERVAL_MS
  return {
    name: NAME,
    async search(query, { signal }) {
      const keywords = gdeltQuery(query.text)
      if (!keywords) return { results: [] }
      const params: Record<string, string> = {
        query: keywords,
        mode: 'artlist',
        format: 'json',
        maxrecords: String(Math.min(MAX_RECORDS, Math.max(1, query.numResults))),
      }
      const start = dayStart(query.startPublishedDate)
      if (start) {
        // Earlier than the window GDELT keeps is the window itself.
        const windowStart = new Date(Date.now() - WINDOW_DAYS * 86_400_000)
        params.startdatetime = gdeltDateTime(start > windowStart ? start : windowStart)
        params.enddatetime = gdeltDateTime(new Date())
      }
      const results = await client.get('/api/v2/doc/doc', params, (answer) => readArtList(answer, interval), signal)
      return { results: results.slice(0, query.numResults) }
    },
  }
}

/** The query's distinctive words; a hyphenated one becomes a quoted phrase, as GDELT reads `-` as "not". */
export function gdeltQuery(text: string): string {
  return significantWords(text, MAX_KEYWORDS, 3)
    .map((word) => (/[-'’]/.test(word) ? `"${word.replace(/[-'’]/g, ' ')}"` : word))
    .join(' ')
}

function readArtList(answer: SourceAnswer, interval: number): SearchResult[] {
  const body = answer.body.trim()
  if (!body.startsWith('{')) {
    // GDELT answers a query it cannot run, and sometimes "slow down", with a line of text and a 200.
    if (/limit requests/i.test(body)) {
      throw new ProviderError(NAME, `${NAME} is rate limiting these searches: ${body.slice(0, 200)}`, {
        retryable: true,
        status: 429,
        retryAfterMs: interval,
      })
    }
    throw new ProviderError(NAME, `${NAME} refused the query: ${body.slice(0, 200) || 'an empty answer'}`, {
      retryable: false,
    })
  }
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    throw new ProviderError(NAME, `${NAME} answered with JSON it did not finish (${body.length} characters).`, {
      retryable: true,
    })
  }
  const parsed = ArtListSchema.safeParse(json)
  if (!parsed.success) {
    throw new ProviderError(NAME, `${NAME}'s answer was not an article list: ${parsed.error.message}`, {
      retryable: false,
    })
  }
  return (parsed.data.articles ?? []).map((article) => {
    const title = article.title?.trim() || article.domain || article.url
    return {
      url: article.url,
      title,
      publishedDate: isoFromSeenDate(article.seendate),
      // GDELT says nothing of an article but its title: the page reader brings the text.
      text: title,
      snippetOnly: true,
      foundBy: NAME,
    }
  })
}

/** `20260827T081500Z` as `2026-08-27T08:15:00Z`; null when it is not that shape. */
function isoFromSeenDate(seen: string | null | undefined): string | null {
  const match = seen ? /^(\d{4})(\d{2})(\d{2})T?(\d{2})(\d{2})(\d{2})Z?$/.exec(seen) : null
  if (!match) return null
  const [, year, month, day, hour, minute, second] = match
  return `${year}-${month}-${day}T${hour}:${minute}:${second}Z`
}

/** GDELT's YYYYMMDDHHMMSS, in UTC. */
function gdeltDateTime(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
}
