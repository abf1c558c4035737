// Web search through the Brave Search API (`GET /res/v1/web/search`, the key in X-Subscription-Token).
// Brave gives each result a short description with the query's words in <strong>, not the page:
// every result is snippet-only, and the page reader brings the text.
import { z } from 'zod'
import { parseRetryAfter } from '#server/providers/retry.ts'
import { isoDate, plainText } from '#server/providers/search/source-text.ts'
import { type ApiRefusal, getJson, MAX_RETRY_AFTER_MS } from '#server/providers/search/web-api.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'Brave'
/** Brave returns at most 20 web results per request. */
const MAX_COUNT = 20
/** Brave refuses (422) a query over 400 characters or 50 words. */
const MAX_QUERY_CHARACTERS = 400
const MAX_QUERY_WORDS = 50

const WebSearchSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          url: z.string(),
          title: z.string().nullish(),
          description: z.string().nullish(),
          /** When Brave thinks the page was published: an ISO datetime, often without a zone. */
          page_age: z.string().nullish(),
          /** The same for people: "2 days ago", "January 15, 2024". */
          age: z.string().nullish(),
        }),
      ),
    })
    .nullish(),
})

/** Brave's error body: `{"type": "ErrorResponse", "error": {"status", "code", "detail"}}`. */
const ErrorBodySchema = z.object({ error: z.object({ code: z.string().optional(), detail: z.string().optional() }) })

export function createBraveSearch(options: {
  apiKey: string
  baseUrl: string
  userAgent: string
  timeoutMs: number
}): SearchProvider {
  const api = {
    name: NAME,
    setting: 'BRAVE_BASE_URL',
    baseUrl: options.baseUrl,
    headers: { 'user-agent': options.userAgent, 'x-subscription-token': options.apiKey },
    timeoutMs: options.timeoutMs,
    explain: explainRefusal,
  }
  return {
    name: 'brave',
    async search(query, { signal }) {
      const params: Record<string, string> = {
        q: braveQuery(query.text),
        count: String(Math.min(MAX_COUNT, Math.max(1, query.numResults))),
      }
      if (query.startPublishedDate) {
        // A custom range, from the start date to today: Brave's own pd/pw/pm/py would round it.
        params.freshness = `${query.startPublishedDate.slice(0, 10)}to${new Date().toISOString().slice(0, 10)}`
      }
      const json = await getJson(api, '/res/v1/web/search', params, signal)
      const parsed = WebSearchSchema.safeParse(json)
      if (!parsed.success) {
        throw new ProviderError(NAME, `${NAME}'s answer was not a list of web results: ${parsed.error.message}`, {
          retryable: false,
        })
      }
      // No `web` at all: nothing matched.
      const results = parsed.data.web?.results ?? []
      return {
        results: results.slice(0, query.numResults).map((result) => toSearchResult(result, query.maxCharacters)),
      }
    },
  }
}

function toSearchResult(
  result: NonNullable<z.infer<typeof WebSearchSchema>['web']>['results'][number],
  maxCharacters: number,
): SearchResult {
  const title = plainText(result.title ?? '') || result.url
  return {
    url: result.url,
    title,
    publishedDate: isoDate(result.page_age) ?? ageDate(result.age),
    text: (plainText(result.description ?? '') || title).slice(0, maxCharacters),
    snippetOnly: true,
  }
}

/** The query as Brave takes it: at most 50 words and 400 characters. */
export function braveQuery(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, MAX_QUERY_WORDS).join(' ')
  return words.length <= MAX_QUERY_CHARACTERS ? words : words.slice(0, MAX_QUERY_CHARACTERS).replace(/\s+\S*$/, '')
}

const UNIT_MS: Record<string, number> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
}

/** Brave's `age` as a date: "January 15, 2024" as it says, "3 days ago" counted back from now. */
function ageDate(age: string | null | undefined, now = Date.now()): string | null {
  const relative = age ? /^(\d+)\s+(minute|hour|day|week|month|year)s?\s+ago$/i.exec(age.trim()) : null
  if (relative) {
    const ms = Number(relative[1]) * (UNIT_MS[(relative[2] as string).toLowerCase()] as number)
    return new Date(now - ms).toISOString().slice(0, 10)
  }
  return isoDate(age)
}

function explainRefusal(refusal: ApiRefusal): ProviderError | undefined {
  const error = errorBody(refusal.body)
  const code = error?.code ? ` ${error.code}` : ''
  const detail = error?.detail ?? refusal.detail
  if (refusal.status === 401 || refusal.status === 403 || error?.code === 'SUBSCRIPTION_TOKEN_INVALID') {
    return new ProviderError(
      NAME,
      `${NAME} refused the API key (HTTP ${refusal.status}${code}: ${detail}). Check BRAVE_API_KEY and its plan, or choose another SEARCH_PROVIDER.`,
      { retryable: false, status: refusal.status },
    )
  }
  if (refusal.status !== 429) return undefined
  const asked = parseRetryAfter(refusal.headers.get('retry-after'))
  const retryAfterMs = asked ?? rateLimitResetMs(refusal.headers)
  if (asked === undefined && retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) {
    // The per-second window resets in a second; a wait this long is the month's quota, used up.
    return new ProviderError(
      NAME,
      `${NAME}'s quota for this key is used up (HTTP 429${code}); it resets in ${duration(retryAfterMs)}. Raise the plan's limit, or choose another SEARCH_PROVIDER until then.`,
      { retryable: false, status: 429, retryAfterMs },
    )
  }
  const pause = retryAfterMs === undefined ? '' : `; it asks for a pause of ${Math.ceil(retryAfterMs / 1000)} s`
  return new ProviderError(NAME, `${NAME} is rate limiting these searches (HTTP 429${pause}): ${detail}`, {
    retryable: retryAfterMs === undefined || retryAfterMs <= MAX_RETRY_AFTER_MS,
    status: 429,
    retryAfterMs,
  })
}

function errorBody(body: string): z.infer<typeof ErrorBodySchema>['error'] | undefined {
  try {
    return ErrorBodySchema.safeParse(JSON.parse(body)).data?.error
  } catch {
    return undefined
  }
}

/**
 * Brave's X-RateLimit-Reset lists the seconds until each window resets ("1, 1419704": the second and
 * the month), and X-RateLimit-Remaining what is left in each: the wait is the longest reset among
 * the windows with nothing left (or the first window's, when Brave does not say which is spent).
 */
function rateLimitResetMs(headers: Headers): number | undefined {
  const resets = numbers(headers.get('x-ratelimit-reset'))
  if (resets.length === 0) return undefined
  const remaining = numbers(headers.get('x-ratelimit-remaining'))
  const spent = resets.filter((_, index) => remaining[index] === 0)
  return Math.max(...(spent.length > 0 ? spent : resets.slice(0, 1))) * 1000
}

function numbers(header: string | null): number[] {
  return (header ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number)
    .filter((value) => Number.isFinite(value) && value >= 0)
}

function duration(ms: number): string {
  const hours = ms / 3_600_000
  if (hours < 1) return `${Math.ceil(ms / 60_000)} min`
  if (hours < 48) return `${Math.ceil(hours)} h`
  return `${Math.ceil(hours / 24)} days`
}
