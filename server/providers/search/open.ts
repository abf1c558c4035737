// The `open` provider: the keyless open sources asked at once, each within its own time limit,
// their results merged by canonical URL (each saying which source found it) and taken from each
// source in turn. A source that fails is a notice, not a failed search; every source unreachable
// is an offline machine (SearchOfflineError), for which withOfflineFallback searches the corpus.

import { SourceUnreachableError } from '#server/providers/search/source-client.ts'
import {
  ProviderError,
  type SearchNotice,
  SearchOfflineError,
  type SearchProvider,
  type SearchQuery,
  type SearchResult,
} from '#server/providers/types.ts'
import { canonicalUrl } from '#server/text/canonical-url.ts'

const PROVIDER = 'open'
export const OFFLINE_FALLBACK_LABEL = 'local corpus (offline fallback)'

type SourceAnswer = { name: string; results: SearchResult[] } | { name: string; error: ProviderError }

export function createOpenSearch(options: {
  /** In the order their results are taken, turn by turn. */
  sources: SearchProvider[]
  /** The most one source may take for one query, its waiting for its turn and its retries included. */
  timeoutMs: number
}): SearchProvider {
  const names = options.sources.map((source) => source.name)
  return {
    name: `open sources (${names.join(', ')})`,
    async search(query, { signal }) {
      const answers = await Promise.all(options.sources.map((source) => ask(source, query, signal, options.timeoutMs)))
      const failures = answers.flatMap((answer) => ('error' in answer ? [answer.error] : []))
      if (failures.length === answers.length) {
        const why = failures.map((failure) => failure.message).join(' ')
        if (failures.every((failure) => failure instanceof SourceUnreachableError)) {
          throw new SearchOfflineError(
            PROVIDER,
            `No open source could be reached, so this machine looks offline. ${why}`,
          )
        }
        throw new ProviderError(PROVIDER, `Every open source failed. ${why}`, { retryable: false })
      }
      const results = interleave(
        answers.flatMap((answer) => ('results' in answer ? [answer] : [])),
        query.numResults,
      )
      const notices: SearchNotice[] = failures.map((failure) => ({
        code: 'source_failed',
        message: `${failure.provider} failed, and the search went on without it: ${failure.message}`,
      }))
      return notices.length > 0 ? { results, notices } : { results }
    },
  }
}

async function ask(
  source: SearchProvider,
  query: SearchQuery,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<SourceAnswer> {
  const sourceSignal = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
  try {
    const response = await source.search(query, { signal: sourceSignal })
    return {
      name: source.name,
      results: response.results.map((result) => ({ ...result, foundBy: result.foundBy ?? source.name })),
    }
  } catch (error) {
    signal.throwIfAborted() // the run was cancelled or ran out of time: not this source's failure
    if (sourceSignal.aborted) {
      const message = `${source.name} did not answer within ${timeoutMs / 1000} s.`
      return {
        name: source.name,
        error: new SourceUnreachableError(source.name, message, {
          retryable: false,
          reachedServer: true,
          cause: error,
        }),
      }
    }
    const failure =
      error instanceof ProviderError
        ? error
        : new ProviderError(source.name, `${source.name} failed: ${(error as Error)?.message ?? String(error)}`, {
            retryable: false,
            cause: error,
          })
    return { name: source.name, error: failure }
  }
}

/**
 * Each source's first result, then each one's second, and so on, up to `limit`; a page two sources
 * found is kept once, at its first place, and says both found it.
 */
export function interleave(answers: Array<{ name: string; results: SearchResult[] }>, limit: number): SearchResult[] {
  const merged = new Map<string, SearchResult>()
  const depth = Math.max(0, ...answers.map((answer) => answer.results.length))
  for (let turn = 0; turn < depth; turn++) {
    for (const answer of answers) {
      const result = answer.results[turn]
      const key = result && canonicalUrl(result.url)
      if (!result || !key) continue
      const kept = merged.get(key)
      if (kept) {
        const by = kept.foundBy?.split(' + ') ?? []
        if (!by.includes(answer.name)) kept.foundBy = [...by, answer.name].join(' + ')
        continue
      }
      if (merged.size === limit) continue
      merged.set(key, { ...result })
    }
  }
  return [...merged.values()]
}

/**
 * `primary` until it finds the machine offline (SearchOfflineError); then `fallback` answers,
 * its results labelled as the offline fallback and the response carrying an `offline_fallback`
 * notice, so the run says in words that the web was not searched.
 */
export function withOfflineFallback(primary: SearchProvider, fallback: SearchProvider): SearchProvider {
  return {
    name: primary.name,
    async search(query, options) {
      try {
        return await primary.search(query, options)
      } catch (error) {
        if (!(error instanceof SearchOfflineError)) throw error
        const answer = await fallback.search(query, options)
        return {
          results: answer.results.map((result) => ({ ...result, foundBy: OFFLINE_FALLBACK_LABEL })),
          notices: [
            {
              code: 'offline_fallback',
              message: `${error.message} The ${fallback.name} answered instead: its documents are not from the live web.`,
            },
          ],
        }
      }
    },
  }
}
