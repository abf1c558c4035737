// Web search through a SearXNG instance's JSON API (`GET /search?format=json`). SearXNG asks the
// engines its owner enabled and gives each result the engines' snippet, not the page: every result
// is snippet-only. Its only date filter is a coarse time_range (day, week, month, year), so results
// that say when they were published are also filtered here by the run's start date.
import { z } from 'zod'
import { isoDate, plainText } from '#server/providers/search/source-text.ts'
import { type ApiRefusal, getJson } from '#server/providers/search/web-api.ts'
import { ProviderError, type SearchNotice, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'SearXNG'

const SearchAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
      engine: z.string().nullish(),
      engines: z.array(z.string()).nullish(),
    }),
  ),
  /** `[["google", "CAPTCHA"], ["bing", "timeout"]]`: engines that did not answer this search. */
  unresponsive_engines: z.array(z.array(z.string())).nullish(),
})

/** SearXNG's time ranges, smallest first, with the days each reaches back. */
const TIME_RANGES = [
  ['day', 1],
  ['week', 7],
  ['month', 30],
  ['year', 365],
] as const

export function createSearxngSearch(options: {
  baseUrl: string
  userAgent: string
  timeoutMs: number
}): SearchProvider {
  const api = {
    name: NAME,
    setting: 'SEARXNG_URL',
    baseUrl: options.baseUrl,
    headers: { 'user-agent': options.userAgent },
    timeoutMs: options.timeoutMs,
    explain: explainRefusal,
  }
  return {
    name: 'searxng',
    async search(query, { signal }) {
      const params: Record<string, string> = { q: query.text, format: 'json' }
      const start = query.startPublishedDate?.slice(0, 10)
      const range = start ? timeRange(start) : undefined
      if (range) params.time_range = range
      const json = await getJson(api, '/search', params, signal)
      const parsed = SearchAnswerSchema.safeParse(json)
      if (!parsed.success) {
        throw new ProviderError(NAME, `${NAME}'s answer was not a list of search results: ${parsed.error.message}`, {
          retryable: false,
        })
      }
      const results = parsed.data.results
        .map((result) => toSearchResult(result, query.maxCharacters))
        // An engine's time range is approximate, and some engines ignore it: a dated result older
        // than the start date is dropped; an undated one is kept, as no date is not an old date.
        .filter((result) => !start || !result.publishedDate || result.publishedDate.slice(0, 10) >= start)
      const notices: SearchNotice[] = (parsed.data.unresponsive_engines ?? []).map(([engine, reason]) => ({
        code: 'source_failed',
        message: `${NAME}'s engine ${engine} did not answer${reason ? ` (${reason})` : ''}; results come from its other engines.`,
      }))
      return { results: results.slice(0, query.numResults), ...(notices.length > 0 ? { notices } : {}) }
    },
  }
}

/**
 * The smallest of SearXNG's ranges that reaches back to `start` (whole days before today, UTC); none
 * when even a year does not (the results are then filtered by date here alone).
 */
export function timeRange(start: string, now = new Date()): string | undefined {
  const today = Date.parse(now.toISOString().slice(0, 10))
  const days = Math.ceil((today - Date.parse(start)) / 86_400_000)
  if (Number.isNaN(days)) return undefined
  return TIME_RANGES.find(([, reach]) => days <= reach)?.[0]
}

function toSearchResult(
  result: z.infer<typeof SearchAnswerSchema>['results'][number],
  maxCharacters: number,
): SearchResult {
  const title = plainText(result.title ?? '') || result.url
  const engines = result.engines?.length ? result.engines : result.engine ? [result.engine] : []
  return {
    url: result.url,
    title,
    publishedDate: isoDate(result.publishedDate),
    text: (plainText(result.content ?? '') || title).slice(0, maxCharacters),
    snippetOnly: true,
    foundBy: engines.length > 0 ? `${NAME} (${engines.join(', ')})` : NAME,
  }
}

function explainRefusal(refusal: ApiRefusal): ProviderError | undefined {
  if (refusal.status === 403) {
    // SearXNG answers a format its settings do not allow with a bare 403 (only HTML is on by default).
    return new ProviderError(
      NAME,
      `${NAME} refused the JSON format (HTTP 403): enable \`json\` under search.formats in the instance's settings.yml, or check SEARXNG_URL.`,
      { retryable: false, status: 403 },
    )
  }
  if (refusal.status === 429 && !refusal.headers.has('retry-after')) {
    return new ProviderError(
      NAME,
      `${NAME} is limiting these searches (HTTP 429): if it is your own instance, its bot limiter (server.limiter in settings.yml) may be counting Sextant as a bot.`,
      { retryable: true, status: 429 },
    )
  }
  return undefined
}
