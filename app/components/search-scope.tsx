// Said where a page describes what Sextant researches, when this server searches the local corpus:
// not the web, and (for the sample that ships with Sextant) invented articles.
import { SAMPLE_SUBJECTS } from '#server/research/search-origin.ts'

/** What this server searches (app/search-scope.server.ts). */
export type SearchScope = 'web' | 'sample' | 'local'

export function SearchScopeNote({ scope }: { scope: SearchScope }) {
  if (scope === 'web') return null
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {scope === 'sample' ? (
        <>
          <strong className="font-semibold">This server searches a sample, not the web:</strong> a few invented articles
          on {SAMPLE_SUBJECTS}, bundled with Sextant for trying it offline. Their companies, people and figures are made
          up.
        </>
      ) : (
        <>
          <strong className="font-semibold">This server searches its local corpus, not the web:</strong> documents
          indexed on the server.
        </>
      )}
    </p>
  )
}
