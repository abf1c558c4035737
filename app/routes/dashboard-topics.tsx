// The account's topic memories: what each holds, search across all of them, and a way to compare two.
import { data, Link } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { TopicCompareForm } from '#app/components/topic-compare-form.tsx'
import { TopicErrorPage } from '#app/components/topic-error.tsx'
import { linkClass } from '#app/components/topic-facts.tsx'
import { TopicSearchForm, TopicSearchResults } from '#app/components/topic-search.tsx'
import { TopicStats } from '#app/components/topic-stats.tsx'
import { servicesContext } from '#app/context.ts'
import { requireAccount } from '#app/session.server.ts'
import { markedHit, SearchQuerySchema } from '#app/topics.server.ts'
import type { Route } from './+types/dashboard-topics'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Topics · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const topics = args.context.get(servicesContext).topics
  const query = new URL(args.request.url).searchParams.get('q') ?? ''
  const page = { topics: await topics.list(account.id), query }
  const parsed = SearchQuerySchema.safeParse(query)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? 'Check the search and try again.'
    return data({ ...page, search: { error, hits: null } }, { status: 400 })
  }
  return {
    ...page,
    search: parsed.data
      ? { error: null, hits: (await topics.search(account.id, parsed.data, { limit: 20 }, 'page')).map(markedHit) }
      : null,
  }
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TopicErrorPage error={error} />
}

export default function Topics({ loaderData }: Route.ComponentProps) {
  const { topics, query, search } = loaderData
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Topics</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        What Sextant remembers about each topic you research: facts, their sources and the runs that found them. A
        topic’s memory expires 30 days after its last run.
      </p>

      {topics.length === 0 ? (
        <div className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-6">
          <h2 className="font-semibold">No topics yet</h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            A topic appears here once a research run on it completes, and each later run on the same topic adds to what
            is remembered.
          </p>
          <p className="mt-3">
            <Link to="/dashboard" className={linkClass}>
              Start a research run on the dashboard
            </Link>
          </p>
        </div>
      ) : (
        <div className="mt-6 flex flex-col gap-8">
          <section aria-labelledby="search-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
            <h2 id="search-heading" className="mb-3 text-lg font-semibold">
              Search your memory
            </h2>
            <TopicSearchForm query={query} error={search?.error} />
            {search?.hits ? <TopicSearchResults query={query.trim()} hits={search.hits} /> : null}
          </section>

          <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
            <section aria-labelledby="topics-heading" className="min-w-0">
              <h2 id="topics-heading" className="mb-3 text-lg font-semibold">
                Your topics <span className="font-normal text-slate-500">({topics.length})</span>
              </h2>
              <ul className="flex flex-col gap-3">
                {topics.map((topic) => (
                  <li key={topic.topicId} className="rounded-lg border border-slate-200 bg-white p-4">
                    <h3 className="mb-3 font-medium break-words">
                      <Link to={`/dashboard/topics/${topic.topicId}`} className={linkClass}>
                        {topic.topic}
                      </Link>
                    </h3>
                    <TopicStats summary={topic} compact />
                  </li>
                ))}
              </ul>
            </section>

            <section
              aria-labelledby="compare-heading"
              className="h-fit rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
            >
              <h2 id="compare-heading" className="mb-3 text-lg font-semibold">
                Compare two topics
              </h2>
              <TopicCompareForm topics={topics} />
            </section>
          </div>
        </div>
      )}
    </AppShell>
  )
}
