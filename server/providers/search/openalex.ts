// Scholarly works with their abstracts from OpenAlex (`/works?search=`). OpenAlex ships an abstract
// as an inverted index (word -> positions) for licensing reasons; it is put back in order here.
import { z } from 'zod'
import {
  createSourceClient,
  type OpenSourceOptions,
  type SourceAnswer,
} from '#server/providers/search/source-client.ts'
import { arxivAbsUrl, clip } from '#server/providers/search/source-text.ts'
import { ProviderError, type SearchProvider, type SearchResult } from '#server/providers/types.ts'

const NAME = 'OpenAlex'
/**
 * OpenAlex allows at most 100 requests per second (developers.openalex.org, rate limits); a research
 * run needs a handful, so requests go one at a time, a tenth of a second apart.
 */
const MIN_INTERVAL_MS = 100
const MAX_PER_PAGE = 100

const WorksSchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      doi: z.string().nullish(),
      display_name: z.string().nullish(),
      title: z.string().nullish(),
      publication_date: z.string().nullish(),
      abstract_inverted_index: z.record(z.string(), z.array(z.number())).nullish(),
      primary_location: z.object({ landing_page_url: z.string().nullish() }).nullish(),
    }),
  ),
})

type Work = z.infer<typeof WorksSchema>['results'][number]

export function createOpenAlexSearch(
  options: OpenSourceOptions & {
    /** The polite pool's contact address (`mailto`): OpenAlex can write before it blocks. */
    mailto?: string
    /** A free key (openalex.org/settings/api): without one OpenAlex allows very few searches a day. */
    apiKey?: string
  },
): SearchProvider {
  const client = createSourceClient({ name: NAME, minIntervalMs: MIN_INTERVAL_MS, accept: 'application/json' }, options)
  return {
    name: NAME,
    async search(query, { signal }) {
      const params: Record<string, string> = {
        search: query.text,
        per_page: String(Math.min(MAX_PER_PAGE, Math.max(1, query.numResults))),
        select: 'id,doi,display_name,publication_date,abstract_inverted_index,primary_location',
      }
      if (query.startPublishedDate) params.filter = `from_publication_date:${query.startPublishedDate.slice(0, 10)}`
      if (options.mailto) params.mailto = options.mailto
      if (options.apiKey) params.api_key = options.apiKey
      const results = await client.get('/works', params, (answer) => readWorks(answer, query.maxCharacters), signal)
      return { results: results.slice(0, query.numResults) }
    },
  }
}

function readWorks(answer: SourceAnswer, maxCharacters: number): SearchResult[] {
  let json: unknown
  try {
    json = JSON.parse(answer.body)
  } catch {
    throw new ProviderError(NAME, `${NAME} answered with something that is not JSON.`, { retryable: true })
  }
  const parsed = WorksSchema.safeParse(json)
  if (!parsed.success) {
    throw new ProviderError(NAME, `${NAME}'s answer was not a list of works: ${parsed.error.message}`, {
      retryable: false,
    })
  }
  return parsed.data.results.map((work) => {
    const title = (work.display_name ?? work.title ?? '').trim() || work.id
    const abstract = abstractText(work.abstract_inverted_index)
    return {
      url: workUrl(work),
      title,
      publishedDate: work.publication_date ?? null,
      text: clip(abstract || title, maxCharacters),
      snippetOnly: true,
      foundBy: NAME,
    }
  })
}

/** The publisher's page, else the DOI, else OpenAlex's own; an arXiv page as arXiv names it. */
function workUrl(work: Work): string {
  const landing = work.primary_location?.landing_page_url ?? undefined
  if (landing) return arxivAbsUrl(landing) ?? landing
  return work.doi ?? work.id
}

/** The abstract back in reading order: each word at each of its positions. */
export function abstractText(index: Record<string, number[]> | null | undefined): string {
  if (!index) return ''
  const words: string[] = []
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) {
      // A corrupt index must not make a sparse array of millions of slots.
      if (Number.isInteger(position) && position >= 0 && position < 20_000) words[position] = word
    }
  }
  return words
    .filter((word) => word !== undefined)
    .join(' ')
    .trim()
}
