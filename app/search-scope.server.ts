// What this server searches, for the pages that describe Sextant before any run: the web, or (with
// SEARCH_PROVIDER=corpus) the local corpus, and whether that holds the invented sample.

import type { SearchScope } from '#app/components/search-scope.tsx'
import type { AppServices } from '#app/context.ts'
import { countCorpusDocuments } from '#server/providers/search/corpus.ts'

export async function searchScope(services: Pick<AppServices, 'config' | 'db'>): Promise<SearchScope> {
  if (services.config.SEARCH_PROVIDER !== 'corpus') return 'web'
  const { invented } = await countCorpusDocuments(services.db)
  return invented > 0 ? 'sample' : 'local'
}
