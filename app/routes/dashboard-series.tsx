// Recurring briefs of the signed-in account: when each runs next, and pause, resume or stop.

import { data, Form, Link, useNavigation } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { MakeFeedButton } from '#app/components/feed-button.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { requireAccount } from '#app/session.server.ts'
import type { SeriesView } from '#server/contracts/series.ts'
import { budgetPhrase } from '#server/research/brief-budget.ts'
import type { Route } from './+types/dashboard-series'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Recurring briefs · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  return { series: await args.context.get(servicesContext).series.list(account.id) }
}

const INTENTS = { pause: 'paused', resume: 'active', stop: 'cancelled' } as const

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const form = await readFormData(args.request)
  const intent = String(form.get('intent') ?? '')
  if (!Object.hasOwn(INTENTS, intent)) throw data('Unknown action.', { status: 400 })
  const seriesId = String(form.get('seriesId') ?? '')
  const status = INTENTS[intent as keyof typeof INTENTS]
  const outcome = await args.context.get(servicesContext).series.setStatus(account.id, seriesId, status)
  if (!outcome.ok && outcome.reason === 'not_found') {
    return data({ seriesId, error: 'There is no such recurring brief for your account.' }, { status: 404 })
  }
  if (!outcome.ok) {
    return data({ seriesId, error: 'This recurring brief was stopped; start a new brief instead.' }, { status: 409 })
  }
  return { seriesId, error: null }
}

export default function Series({ loaderData, actionData }: Route.ComponentProps) {
  const active = loaderData.series.filter((series) => series.state !== 'cancelled')
  const stopped = loaderData.series.filter((series) => series.state === 'cancelled')
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Recurring briefs</h1>
      <p className="mt-2 max-w-2xl text-sm text-slate-600">
        A recurring brief runs again every 7 days and reports only what changed since its last run. Between runs it
        sleeps and costs nothing. Pause it to skip runs; resume it to continue on its old schedule.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {active.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
          No recurring briefs. Tick “Run again every 7 days” on a{' '}
          <Link to="/dashboard" className="text-indigo-700 underline">
            new brief
          </Link>{' '}
          to start one.
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4">
          {active.map((series) => (
            <SeriesCard key={series.seriesId} series={series} />
          ))}
        </ul>
      )}
      {stopped.length > 0 ? (
        <section aria-labelledby="stopped-heading" className="mt-10">
          <h2 id="stopped-heading" className="text-lg font-semibold">
            Stopped
          </h2>
          <ul className="mt-3 flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {stopped.map((series) => (
              <li key={series.seriesId} id={`series-${series.seriesId}`} className="px-4 py-3 text-sm">
                <span className="font-medium break-words">{series.topic}</span>
                <span className="text-slate-600">
                  {' '}
                  · started <LocalTime iso={series.createdAt} />
                </span>
                {series.lastRunId ? (
                  <>
                    {' · '}
                    <Link to={`/dashboard/runs/${series.lastRunId}`} className="text-indigo-700 underline">
                      last run
                    </Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AppShell>
  )
}

function SeriesCard({ series }: { series: SeriesView }) {
  const headingId = `series-${series.seriesId}-topic`
  const budget = budgetPhrase(series.brief)
  return (
    <li
      id={`series-${series.seriesId}`}
      aria-labelledby={headingId}
      className="rounded-lg border border-slate-200 bg-white p-4 target:ring-2 target:ring-indigo-500 sm:p-5"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold break-words">
            {series.topic}
          </h2>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <StatusBadge status={series.state === 'cancelled' ? 'cancelled' : series.state} />
            <span>{series.brief.depth === 'quick' ? 'Quick' : 'Deep'}, every 7 days</span>
            {budget ? <span>· {budget} per run</span> : null}
            {series.state === 'sleeping' && series.nextRunAt ? (
              <span>
                · next run <LocalTime iso={series.nextRunAt} />
              </span>
            ) : null}
            {series.state === 'paused' ? <span>· no runs start until you resume it</span> : null}
          </div>
          {series.lastRunId ? (
            <Link
              to={`/dashboard/runs/${series.lastRunId}`}
              className="mt-2 inline-block text-sm text-indigo-700 underline-offset-2 hover:underline"
            >
              {series.state === 'running' ? 'Watch the current run' : 'Read the latest report'}
            </Link>
          ) : null}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {series.state === 'paused' ? (
            <SeriesAction series={series} intent="resume" label="Resume" />
          ) : (
            <SeriesAction series={series} intent="pause" label="Pause" />
          )}
          <SeriesAction series={series} intent="stop" label="Stop for good" danger />
          <MakeFeedButton subject={{ seriesId: series.seriesId }} />
        </div>
      </div>
    </li>
  )
}

function SeriesAction({
  series,
  intent,
  label,
  danger,
}: {
  series: SeriesView
  intent: keyof typeof INTENTS
  label: string
  danger?: boolean
}) {
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' &&
    navigation.formData?.get('seriesId') === series.seriesId &&
    navigation.formData.get('intent') === intent
  const tone = danger
    ? 'border-red-300 text-red-800 hover:bg-red-50 focus-visible:outline-red-700'
    : 'border-slate-300 text-slate-800 hover:bg-slate-100 focus-visible:outline-indigo-700'
  return (
    <Form method="post">
      <input type="hidden" name="seriesId" value={series.seriesId} />
      <button
        type="submit"
        name="intent"
        value={intent}
        disabled={busy}
        aria-label={`${label}: ${series.topic}`}
        className={`rounded-md border bg-white px-3 py-1.5 text-sm font-medium focus-visible:outline-2 disabled:opacity-60 ${tone}`}
      >
        {label}
      </button>
    </Form>
  )
}
