// Search across every topic's facts: the form (a GET, so results have an address) and the hits.
import { Form, Link } from 'react-router'
import { controlClass, ErrorText } from '#app/components/form.tsx'
import { FactItem, linkClass } from '#app/components/topic-facts.tsx'
import type { markedHit } from '#app/topics.server.ts'

type SearchHitView = ReturnType<typeof markedHit>

export function TopicSearchForm({ query, error }: { query: string; error?: string | null }) {
  return (
    <Form method="get" action="/dashboard/topics" role="search" className="flex flex-col gap-1">
      <label htmlFor="field-q" className="text-sm font-medium text-slate-800">
        Search facts in all your topics
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="field-q"
          type="search"
          name="q"
          defaultValue={query}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'field-q-hint field-q-error' : 'field-q-hint'}
          className={controlClass}
        />
        <button
          type="submit"
          className="shrink-0 rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
        >
          Search
        </button>
      </div>
      <p id="field-q-hint" className="text-xs text-slate-500">
        Words, in any order; facts with the rarer words rank first.
      </p>
      <ErrorText id="field-q-error" message={error ?? undefined} />
    </Form>
  )
}

export function TopicSearchResults({ query, hits }: { query: string; hits: readonly SearchHitView[] }) {
  return (
    <section aria-labelledby="search-results-heading" className="mt-4">
      <h3 id="search-results-heading" className="font-semibold break-words">
        {hits.length === 0
          ? `No facts match “${query}”`
          : `${hits.length === 1 ? '1 fact matches' : `${hits.length} facts match`} “${query}”`}
      </h3>
      {hits.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">Try other words, or fewer of them.</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-200">
          {hits.map((hit) => (
            <FactItem key={`${hit.topicId}:${hit.fact.id}`} fact={hit.fact} parts={hit.parts}>
              <p className="text-sm text-slate-600">
                In{' '}
                <Link to={`/dashboard/topics/${hit.topicId}`} className={`${linkClass} break-words`}>
                  {hit.topic}
                </Link>{' '}
                · matched {hit.matched.join(', ')}
              </p>
            </FactItem>
          ))}
        </ol>
      )}
    </section>
  )
}
