// Web search through Tavily's official client, @tavily/core (`POST /search`, TAVILY_BASE_URL as its
// apiBaseURL). A basic search returns each page's content snippet; the raw page text is asked for
// too, and a result that comes with it is the page's text, one without it snippet-only.
//
// The client turns every HTTP failure into a plain Error holding only Tavily's `detail.error` text
// (or "<status> Error: <body>" when there is none): the status and headers are gone. Failures are
// classified by Tavily's documented texts, and a 429 backs off on our schedule, not Retry-After.
// It takes no AbortSignal either: its own timeout ends the request, our signal stops the waiting.
import type { TavilyClient } from '@tavily/core'
import { z } from 'zod'
import { callWithRetries, isRetryableStatus, settleOrAbort } from '#server/providers/retry.ts'
import { isoDate } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'Tavily'
/** Tavily returns at most 20 results per search. */
const MAX_RESULTS = 20

// The client returns whatever the JSON held, renamed to camelCase: check what we rely on.
const TavilyAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      rawContent: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
})

export function createTavilySearch(options: { apiKey: string; baseUrl: string; timeoutMs: number }): SearchProvider {
  // Loaded on the first search, not at boot: the client brings a tokenizer (js-tiktoken) that costs
  // every process about 40 MB and a quarter of a second, and most deployments search with another provider.
  let client: Promise<TavilyClient> | undefined
  const load = () => {
    client ??= import('@tavily/core').then(({ tavily }) =>
      tavily({ apiKey: options.apiKey, apiBaseURL: options.baseUrl, clientSource: 'sextant' }),
    )
    return client
  }
  const classify = (error: unknown) => classifyTavilyError(error, options)
  return {
    name: 'tavily',
    async search(query, { signal }) {
      const tavily = await load()
      const answer = await callWithRetries(
        (attemptSignal) =>
          settleOrAbort(
            tavily.search(query.text, {
              searchDepth: 'basic',
              maxResults: Math.min(MAX_RESULTS, Math.max(1, query.numResults)),
              includeRawContent: 'text',
              // Tavily's own date filter (YYYY-MM-DD, any topic): results published on or after it.
              ...(query.startPublishedDate ? { startDate: query.startPublishedDate.slice(0, 10) } : {}),
              // A second past ours, so our timeout (the retried one) is the one that fires.
              timeout: options.timeoutMs / 1000 + 1,
            }),
            attemptSignal,
          ),
        { signal, timeoutMs: options.timeoutMs, classify },
      )
      const parsed = TavilyAnswerSchema.safeParse(answer)
      if (!parsed.success) {
        throw new ProviderError(NAME, `${NAME}'s answer was not a list of search results: ${parsed.error.message}`, {
          retryable: false,
        })
      }
      return {
        results: parsed.data.results
          .slice(0, query.numResults)
          .map((result) => toSearchResult(result, query.maxCharacters)),
      }
    },
  }
}

function toSearchResult(
  result: z.infer<typeof TavilyAnswerSchema>['results'][number],
  maxCharacters: number,
): SearchResult {
  const raw = result.rawContent?.trim()
  const title = result.title?.trim() || result.url
  return {
    url: result.url,
    title,
    // Present for news-like pages; Tavily writes it as an HTTP date ("Mon, 13 Jan 2025 18:45:12 GMT").
    publishedDate: isoDate(result.publishedDate),
    text: (raw || result.content?.trim() || title).slice(0, maxCharacters),
    // Without the raw text, `content` is Tavily's snippet of the page, worth reading in full.
    ...(raw ? {} : { snippetOnly: true }),
  }
}

/** Tavily's documented failures, by the text the client keeps of them. */
const KNOWN_FAILURES: Array<{ pattern: RegExp; status: number }> = [
  { pattern: /unauthori[sz]ed|invalid api key|missing api key|forbidden/i, status: 401 },
  { pattern: /excessive requests|rate limit|too many requests/i, status: 429 },
  { pattern: /exceeds your plan|usage limit/i, status: 432 },
  { pattern: /pay-as-you-go/i, status: 433 },
  { pattern: /internal server error|bad gateway|service unavailable|gateway time-?out/i, status: 500 },
]

function classifyTavilyError(error: unknown, options: { baseUrl: string; timeoutMs: number }): ProviderError {
  if (error instanceof ProviderError) return error
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new ProviderError(NAME, `${NAME} did not answer within ${options.timeoutMs / 1000} s.`, {
      retryable: true,
      cause: error,
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  if (/^Request timed out after/.test(message)) {
    return new ProviderError(NAME, `${NAME} did not answer within ${options.timeoutMs / 1000} s.`, {
      retryable: true,
      cause: error,
    })
  }
  const unexpected = /^An unexpected error occurred while making the request\. Error: (.*)$/s.exec(message)?.[1]
  // No answer at all: the client wraps the connection's error ("Error: connect ECONNREFUSED ...").
  const code = /\b(ECONN[A-Z]+|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE)\b/.exec(
    unexpected ?? '',
  )?.[1]
  if (code || /socket hang up/i.test(unexpected ?? '')) {
    const never = code !== undefined && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)
    return new ProviderError(
      NAME,
      `Could not reach ${NAME} at ${options.baseUrl} (${code ?? 'the connection dropped'}).`,
      {
        // A refused connection or an unknown host will not be there a second later; a dropped one may.
        retryable: !never,
        cause: error,
      },
    )
  }
  if (unexpected !== undefined) {
    // The client could not read the answer as a search (not JSON, or not Tavily's shape).
    return new ProviderError(
      NAME,
      `${NAME} answered with something that is not a search result (check TAVILY_BASE_URL): ${unexpected}`,
      { retryable: true, cause: error },
    )
  }
  const status =
    Number(/^(\d{3}) Error:/.exec(message)?.[1]) || KNOWN_FAILURES.find((known) => known.pattern.test(message))?.status
  if (status === 401 || status === 403) {
    return new ProviderError(
      NAME,
      `${NAME} refused the API key (${message}). Check TAVILY_API_KEY, or choose another SEARCH_PROVIDER.`,
      { retryable: false, status, cause: error },
    )
  }
  if (status === 432 || status === 433) {
    return new ProviderError(NAME, `${NAME} refused the search: the account's usage limit is reached (${message}).`, {
      retryable: false,
      status,
      cause: error,
    })
  }
  if (status === 429) {
    return new ProviderError(NAME, `${NAME} is rate limiting these searches: ${message}`, {
      retryable: true,
      status,
      cause: error,
    })
  }
  return new ProviderError(NAME, `${NAME} search failed${status ? ` (HTTP ${status})` : ''}: ${message}`, {
    retryable: status !== undefined && isRetryableStatus(status),
    ...(status ? { status } : {}),
    cause: error,
  })
}
