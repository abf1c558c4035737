// Two topics side by side: how much each holds, what they share, and what only one of them knows.
import { data, Link } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { TopicCompareForm } from '#app/components/topic-compare-form.tsx'
import { TopicErrorPage } from '#app/components/topic-error.tsx'
import { FactList, FactSources, linkClass, SourceList } from '#app/components/topic-facts.tsx'
import { servicesContext } from '#app/context.ts'
import { requireAccount } from '#app/session.server.ts'
import { CompareSchema } from '#app/topics.server.ts'
import type { ComparisonView as TopicComparisonView } from '#server/topics/contract.ts'
import type { Route } from './+types/dashboard-topics-compare'

export function meta({ loaderData }: Route.MetaArgs) {
  const comparison = loaderData?.comparison
  return [
    {
      title: comparison ? `${comparison.a.topic} and ${comparison.b.topic} · Sextant` : 'Compare topics · Sextant',
    },
  ]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const topics = args.context.get(servicesContext).topics
  const summaries = await topics.list(account.id)
  const params = new URL(args.request.url).searchParams
  const selected = { a: params.get('a') ?? '', b: params.get('b') ?? '' }
  const page = {
    topics: summaries.map(({ topicId, topic }) => ({ topicId, topic })),
    selected,
  }
  const parsed = CompareSchema.safeParse(selected)
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? 'Choose two topics to compare.'
    return data({ ...page, error, comparison: null }, { status: 400 })
  }
  const result = await topics.compare(account.id, { topicId: parsed.data.a }, { topicId: parsed.data.b }, 'page')
  if ('missing' in result) {
    // Unknown, expired and another account's topics read the same: none of them is yours to see.
    const error = `${result.missing.length === 1 ? 'One of these topics has' : 'These topics have'} no memory for your account; it may have expired. Choose two from the lists.`
    return data({ ...page, error, comparison: null }, { status: 404 })
  }
  return { ...page, error: null, comparison: result.comparison }
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TopicErrorPage error={error} />
}

const cardClass = 'rounded-lg border border-slate-200 bg-white p-4 sm:p-6'

export default function CompareTopics({ loaderData }: Route.ComponentProps) {
  const { topics, selected, error, comparison } = loaderData
  return (
    <AppShell>
      <div className="flex flex-col gap-6">
        <header className="flex flex-col gap-3">
          <Link to="/dashboard/topics" className={`${linkClass} self-start text-sm no-underline hover:underline`}>
            ← All topics
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight">Compare topics</h1>
        </header>

        <section aria-labelledby="choose-heading" className={cardClass}>
          <h2 id="choose-heading" className="mb-3 text-lg font-semibold">
            Choose two topics
          </h2>
          {/* Keyed by the comparison shown, so the selects follow back and forward navigation. */}
          <TopicCompareForm
            key={`${selected.a}:${selected.b}`}
            topics={topics}
            a={selected.a}
            b={selected.b}
            error={error}
          />
        </section>

        {comparison ? <Comparison comparison={comparison} /> : null}
      </div>
    </AppShell>
  )
}

function Comparison({ comparison }: { comparison: TopicComparisonView }) {
  const { a, b, summary } = comparison
  return (
    <>
      <section aria-labelledby="summary-heading" className={cardClass}>
        <h2 id="summary-heading" className="mb-3 text-lg font-semibold">
          Summary
        </h2>
        <table className="w-full max-w-3xl table-fixed text-left text-sm">
          <caption className="sr-only">Facts and sources each topic holds, and how many they share</caption>
          <thead className="border-b border-slate-200 text-slate-600">
            <tr>
              <td className="w-20 py-2 pr-2 sm:w-28" />
              <th scope="col" className="py-2 pr-2 font-medium [overflow-wrap:anywhere]">
                <TopicLink topic={a} />
              </th>
              <th scope="col" className="py-2 pr-2 font-medium [overflow-wrap:anywhere]">
                <TopicLink topic={b} />
              </th>
              <th scope="col" className="w-16 py-2 font-medium sm:w-28">
                Shared
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            <tr>
              <th scope="row" className="py-2 pr-2 font-medium">
                Facts
              </th>
              <td className="py-2 pr-2">{summary.factsA}</td>
              <td className="py-2 pr-2">{summary.factsB}</td>
              <td className="py-2">{summary.sharedFacts}</td>
            </tr>
            <tr>
              <th scope="row" className="py-2 pr-2 font-medium">
                Sources
              </th>
              <td className="py-2 pr-2">{summary.sourcesA}</td>
              <td className="py-2 pr-2">{summary.sourcesB}</td>
              <td className="py-2">{summary.sharedSources}</td>
            </tr>
          </tbody>
        </table>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="shared-facts-heading" className={`${cardClass} min-w-0`}>
          <h2 id="shared-facts-heading" className="mb-1 text-lg font-semibold">
            Shared facts <span className="font-normal text-slate-500">({comparison.sharedFacts.length})</span>
          </h2>
          <p className="mb-3 text-sm text-slate-600">
            The same claim in both topics: the same words, or close wording citing a common source.
          </p>
          {comparison.sharedFacts.length === 0 ? (
            <p className="text-sm text-slate-600">The two topics share no facts.</p>
          ) : (
            <ul className="divide-y divide-slate-200">
              {comparison.sharedFacts.map((pair) => (
                <li key={`${pair.a.id}:${pair.b.id}`} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0">
                  {pair.sameText ? (
                    <>
                      <p className="break-words">{pair.a.text}</p>
                      <FactSources sources={pair.a.sources} />
                    </>
                  ) : (
                    <dl className="flex flex-col gap-2">
                      {[
                        { topic: a.topic, fact: pair.a },
                        { topic: b.topic, fact: pair.b },
                      ].map(({ topic, fact }, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: always the two topics, in order
                        <div key={index}>
                          <dt className="text-xs font-medium text-slate-500 break-words">In {topic}</dt>
                          <dd className="flex flex-col gap-1">
                            <p className="break-words">{fact.text}</p>
                            <FactSources sources={fact.sources} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="shared-sources-heading" className={`${cardClass} min-w-0`}>
          <h2 id="shared-sources-heading" className="mb-3 text-lg font-semibold">
            Shared sources <span className="font-normal text-slate-500">({comparison.sharedSources.length})</span>
          </h2>
          <SourceList sources={comparison.sharedSources} empty="The two topics cite no common source." />
        </section>

        <OnlyIn id="only-a" topic={a.topic} only={comparison.onlyA} />
        <OnlyIn id="only-b" topic={b.topic} only={comparison.onlyB} />
      </div>
    </>
  )
}

function TopicLink({ topic }: { topic: { topicId: string; topic: string } }) {
  return (
    <Link to={`/dashboard/topics/${topic.topicId}`} className={linkClass}>
      {topic.topic}
    </Link>
  )
}

function OnlyIn({ id, topic, only }: { id: string; topic: string; only: TopicComparisonView['onlyA'] }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`${cardClass} min-w-0`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold break-words">
        Only in “{topic}”
      </h2>
      <h3 className="mt-4 mb-2 font-semibold">
        Facts <span className="font-normal text-slate-500">({only.facts.length})</span>
      </h3>
      <FactList facts={only.facts} empty="No facts the other topic lacks." />
      <h3 className="mt-6 mb-2 font-semibold">
        Sources <span className="font-normal text-slate-500">({only.sources.length})</span>
      </h3>
      <SourceList sources={only.sources} empty="No sources the other topic lacks." />
    </section>
  )
}
