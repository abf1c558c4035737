// One topic's memory: its numbers, what the latest run added (new, updated, contradicted), every fact
// memory holds true now and the history of those it replaced, every source, and its runs.
import { data, Form, Link } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { MakeFeedButton } from '#app/components/feed-button.tsx'
import { CorpusNotice } from '#app/components/report-view.tsx'
import { TopicDelta, TopicHistory } from '#app/components/topic-delta.tsx'
import { TopicErrorPage } from '#app/components/topic-error.tsx'
import { FactList, linkClass, SourceList } from '#app/components/topic-facts.tsx'
import { TopicRunHistory } from '#app/components/topic-run-history.tsx'
import { TopicStats } from '#app/components/topic-stats.tsx'
import { servicesContext } from '#app/context.ts'
import { requireAccount } from '#app/session.server.ts'
import { loadTopicPage, TOPIC_NOT_FOUND } from '#app/topics.server.ts'
import type { Route } from './+types/dashboard-topic'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.summary.topic} · Topics · Sextant` : 'Topic · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const page = await loadTopicPage(args.context.get(servicesContext), account.id, args.params.topicId)
  // Another account's topic is "not found" too: saying it exists would leak that it does.
  if (!page) throw data(TOPIC_NOT_FOUND, { status: 404 })
  return page
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TopicErrorPage error={error} />
}

const cardClass = 'rounded-lg border border-slate-200 bg-white p-4 sm:p-6'

export default function TopicPage({ loaderData }: Route.ComponentProps) {
  const { summary, notice, delta, facts, history, sources, runs, again } = loaderData
  // When the latest run found everything remembered, its list would repeat the facts below word for word.
  const firstRun =
    delta !== null &&
    history.length === 0 &&
    delta.factCount === facts.length &&
    delta.sources.length === sources.length
  return (
    <AppShell>
      <article className="flex flex-col gap-6">
        <header className="flex flex-col gap-3">
          <Link to="/dashboard/topics" className={`${linkClass} self-start text-sm no-underline hover:underline`}>
            ← All topics
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight break-words">{summary.topic}</h1>
          {notice ? <CorpusNotice notice={notice} /> : null}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <Form method="post" action="/dashboard">
              {Object.entries(again).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <button
                type="submit"
                aria-describedby="again-hint"
                className="w-full rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 sm:w-auto"
              >
                Research this again
              </button>
            </Form>
            <a
              href={`/dashboard/topics/${summary.topicId}/export`}
              download
              className="rounded-md border border-slate-300 bg-white px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
            >
              Export as Markdown
            </a>
            <MakeFeedButton subject={{ topicId: summary.topicId }} />
          </div>
          <p id="again-hint" className="text-xs text-slate-500">
            Researching again repeats the latest run’s brief once; what it finds is added to this memory.
          </p>
        </header>

        <section aria-labelledby="stats-heading">
          <h2 id="stats-heading" className="sr-only">
            Memory in numbers
          </h2>
          <TopicStats summary={summary} />
        </section>

        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <div className="flex min-w-0 flex-col gap-6">
            <TopicDelta delta={delta} firstRun={firstRun} />

            <section aria-labelledby="facts-heading" className={cardClass}>
              <h2 id="facts-heading" className="text-lg font-semibold">
                Facts <span className="font-normal text-slate-500">({facts.length}, newest first)</span>
              </h2>
              <div className="mt-3">
                <FactList facts={facts} empty="No facts are remembered yet." />
              </div>
            </section>

            <TopicHistory history={history} />
          </div>

          <div className="flex min-w-0 flex-col gap-6">
            <section aria-labelledby="runs-heading" className={cardClass}>
              <h2 id="runs-heading" className="mb-3 text-lg font-semibold">
                Run history
              </h2>
              <TopicRunHistory runs={runs} />
            </section>

            <section aria-labelledby="sources-heading" className={cardClass}>
              <h2 id="sources-heading" className="mb-3 text-lg font-semibold">
                Sources <span className="font-normal text-slate-500">({sources.length})</span>
              </h2>
              <SourceList sources={sources} empty="No sources are remembered yet." />
            </section>
          </div>
        </div>
      </article>
    </AppShell>
  )
}
