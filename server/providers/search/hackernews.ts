// Technology news and discussion from Hacker News, through its Algolia search API
// (`/api/v1/search?tags=story`): each story's link (or its discussion, for a post without one).
import { z } from 'zod'
import {
  createSourceClient,
  type OpenSourceOptions,
  type SourceAnswer,
} from '#server/providers/search/source-client.ts'
import { clip, dayStart, plainText } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'Hacker News'
/**
 * "We are limiting the number of API requests from a single IP to 10,000 per hour" (hn.algolia.com/api):
 * one request every 0.36 s at most, so they start 0.4 s apart.
 */
const MIN_INTERVAL_MS = 400
const MAX_HITS = 100

const SearchSchema = z.object({
  hits: z.array(
    z.object({
      objectID: z.string(),
      title: z.string().nullish(),
      url: z.string().nullish(),
      story_text: z.string().nullish(),
      created_at: z.string().nullish(),
    }),
  ),
})

export function createHackerNewsSearch(options: OpenSourceOptions): SearchProvider {
  const client = createSourceClient({ name: NAME, minIntervalMs: MIN_INTERVAL_MS, accept: 'application/json' }, options)
  return {
    name: NAME,
    async search(query, { signal }) {
      const params: Record<string, string> = {
        query: query.text,
        tags: 'story',
        hitsPerPage: String(Math.min(MAX_HITS, Math.max(1, query.numResults))),
      }
      const start = dayStart(query.startPublishedDate)
      if (start) params.numericFilters = `created_at_i>=${Math.floor(start.getTime() / 1000)}`
      const results = await client.get(
        '/api/v1/search',
        params,
        (answer) => readHits(answer, query.maxCharacters),
        signal,
      )
      return { results: results.slice(0, query.numResults) }
    },
  }
}

function readHits(answer: SourceAnswer, maxCharacters: number): SearchResult[] {
  let json: unknown
  try {
    json = JSON.parse(answer.body)
  } catch {
    throw new ProviderError(NAME, `${NAME} search answered with something that is not JSON.`, { retryable: true })
  }
  const parsed = SearchSchema.safeParse(json)
  if (!parsed.success) {
    throw new ProviderError(NAME, `${NAME} search's answer was not a list of hits: ${parsed.error.message}`, {
      retryable: false,
    })
  }
  return parsed.data.hits.map((hit) => {
    const discussion = `https://news.ycombinator.com/item?id=${encodeURIComponent(hit.objectID)}`
    const title = hit.title?.trim() || discussion
    // An Ask HN post has its text; a link has only its title, and the page reader brings the rest.
    const story = plainText(hit.story_text ?? '')
    return {
      url: hit.url || discussion,
      title,
      publishedDate: hit.created_at ?? null,
      text: clip(story ? `${title}${/[.?!:]$/.test(title) ? '' : '.'} ${story}` : title, maxCharacters),
      snippetOnly: true,
      foundBy: NAME,
    }
  })
}
