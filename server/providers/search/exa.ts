// Web search through Exa (exa-js). exa-js takes no AbortSignal and its errors carry no response
// headers, so the timeout is enforced around the call and a 429 backs off without Retry-After.
import { Exa, ExaError } from 'exa-js'
import { z } from 'zod'
import { callWithRetries, isRetryableStatus, settleOrAbort } from '#server/providers/retry.ts'
import { ProviderError, type SearchProvider, type SearchResult, type Turn } from '#server/providers/types.ts'

const PROVIDER = 'exa'

// exa-js returns whatever JSON came back; check the parts we rely on before using them.
const ExaSearchResponseSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().nullish(),
      publishedDate: z.string().nullish(),
      text: z.string().nullish(),
    }),
  ),
  costDollars: z.object({ total: z.number() }).nullish(),
  /** What an "auto" search ran as: "neural", or "keyword" for a query Exa matched by its words. */
  resolvedSearchType: z.string().nullish(),
})

export function createExaSearch(options: {
  apiKey: string
  baseUrl?: string
  timeoutMs: number
  /** Exa's rate, shared by every process (EXA_REQUESTS_PER_SECOND). */
  turn?: Turn
}): SearchProvider {
  const exa = new Exa(options.apiKey, options.baseUrl)
  const classify = (error: unknown) => classifyExaError(error, options)
  return {
    name: PROVIDER,
    async search(query, { signal }) {
      const answer = await callWithRetries(
        (attemptSignal) =>
          settleOrAbort(
            exa.search(query.text, {
              numResults: query.numResults,
              ...(query.startPublishedDate ? { startPublishedDate: query.startPublishedDate } : {}),
              contents: { text: { maxCharacters: query.maxCharacters } },
            }),
            attemptSignal,
          ),
        { signal, timeoutMs: options.timeoutMs, classify, ...(options.turn ? { turn: options.turn } : {}) },
      )
      const parsed = ExaSearchResponseSchema.safeParse(answer)
      if (!parsed.success) {
        throw new ProviderError(PROVIDER, `Exa's answer was not a list of search results: ${parsed.error.message}`, {
          retryable: false,
        })
      }
      return {
        results: parsed.data.results.map((result) =>
          toSearchResult(result, parsed.data.resolvedSearchType !== 'keyword'),
        ),
        ...(parsed.data.costDollars ? { costDollars: parsed.data.costDollars.total } : {}),
      }
    },
  }
}

function toSearchResult(
  result: z.infer<typeof ExaSearchResponseSchema>['results'][number],
  byMeaning: boolean,
): SearchResult {
  return {
    url: result.url,
    title: result.title?.trim() || titleFromUrl(result.url),
    publishedDate: result.publishedDate ?? null,
    text: result.text ?? '',
    // Exa's search is neural unless it says it ran a keyword search: a page found by what the query
    // means may share no word with it.
    ...(byMeaning ? { matchedByMeaning: true } : {}),
  }
}

/** Exa has no title for some pages; host and path still tell a reader what the source is. */
function titleFromUrl(url: string): string {
  try {
    const { host, pathname } = new URL(url)
    return pathname === '/' ? host : `${host}${pathname.replace(/\/$/, '')}`
  } catch {
    return url
  }
}

function classifyExaError(error: unknown, options: { baseUrl?: string; timeoutMs: number }): ProviderError {
  if (error instanceof ExaError) {
    const status = error.statusCode
    if (status === 401 || status === 403) {
      return new ProviderError(
        PROVIDER,
        `Exa refused the API key (HTTP ${status}: ${error.message}). Check EXA_API_KEY, or unset it to search the local corpus.`,
        { retryable: false, status, cause: error },
      )
    }
    if (status === 402) {
      return new ProviderError(PROVIDER, `Exa refused the search: the account is out of credits (${error.message}).`, {
        retryable: false,
        status,
        cause: error,
      })
    }
    if (status >= 200 && status < 300) {
      // A 2xx that exa-js could not read as JSON: a truncated answer, or EXA_BASE_URL pointing elsewhere.
      return new ProviderError(
        PROVIDER,
        `Exa answered with something that is not JSON (check EXA_BASE_URL): ${error.message}`,
        { retryable: true, status, cause: error },
      )
    }
    const what = status === 429 ? 'Exa is rate limiting these searches' : `Exa failed (HTTP ${status})`
    return new ProviderError(PROVIDER, `${what}: ${error.message}`, {
      retryable: isRetryableStatus(status),
      status,
      cause: error,
    })
  }
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new ProviderError(PROVIDER, `Exa did not answer within ${options.timeoutMs / 1000} s.`, {
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const code = (error.cause as { code?: unknown } | undefined)?.code
    return new ProviderError(
      PROVIDER,
      `Could not reach Exa at ${options.baseUrl ?? 'https://api.exa.ai'}${typeof code === 'string' ? ` (${code})` : ''}.`,
      { retryable: true, cause: error },
    )
  }
  return new ProviderError(PROVIDER, `Exa search failed: ${error instanceof Error ? error.message : String(error)}`, {
    retryable: false,
    cause: error,
  })
}
