// What this server searches, for the pages that describe Sextant before any run: the web, or (with
// SEARCH_PROVIDER=corpus) the local corpus, and whether that holds the invented sample.

import type { SearchScope } from '#app/components/search-scope.tsx'
import type { Services } from '#server/services.ts'

export async function searchScope(services: Pick<Services, 'config' | 'corpus'>): Promise<SearchScope> {
  if (services.config.SEARCH_PROVIDER !== 'corpus') return 'web'
  const { invented } = await services.corpus.count()
  return invented > 0 ? 'sample' : 'local'
}
