// Recurring briefs of the signed-in account: how often each runs and what it sends, when it runs
// next; run one now, change its schedule, pause, resume or stop it.

import { data, Link } from 'react-router'
import { scheduleLimits } from '#app/cadence-form.server.ts'
import { AppShell } from '#app/components/app-shell.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { type SeriesActionResult, SeriesCard } from '#app/components/series-card.tsx'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { runSeriesNow, updateSchedule } from '#app/series-actions.server.ts'
import { requireAccount } from '#app/session.server.ts'
import { everyWords, rangeWords } from '#server/vocabulary/cadence.ts'
import type { SeriesStatus } from '#server/vocabulary/series.ts'
import type { Route } from './+types/dashboard-series'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Recurring briefs · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const services = args.context.get(servicesContext)
  return { series: await services.series.list(account.id), schedule: scheduleLimits(services.config) }
}

const STATUSES = { pause: 'paused', resume: 'active', stop: 'cancelled' } as const satisfies Record<
  string,
  SeriesStatus
>

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const services = args.context.get(servicesContext)
  const form = await readFormData(args.request)
  const intent = String(form.get('intent') ?? '')
  const seriesId = String(form.get('seriesId') ?? '')
  if (intent === 'update') return updateSchedule(services, account, seriesId, form)
  if (intent === 'run') return runSeriesNow(services, account, seriesId, args.context.get(requestInfoContext).ip)
  if (!Object.hasOwn(STATUSES, intent)) throw data('Unknown action.', { status: 400 })
  const status = STATUSES[intent as keyof typeof STATUSES]
  const outcome = await services.series.setStatus(account.id, seriesId, status)
  if (!outcome.ok && outcome.reason === 'not_found') {
    return data<SeriesActionResult>(
      { seriesId, error: 'There is no such recurring brief for your account.' },
      { status: 404 },
    )
  }
  if (!outcome.ok) {
    return data<SeriesActionResult>(
      { seriesId, error: 'This recurring brief was stopped; start a new brief instead.' },
      { status: 409 },
    )
  }
  return { seriesId, error: null, changed: intent as keyof typeof STATUSES } satisfies SeriesActionResult
}

/** A refused run now's Retry-After reaches the page that says to wait. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : {}
}

export default function Series({ loaderData, actionData }: Route.ComponentProps) {
  const active = loaderData.series.filter((series) => series.state !== 'cancelled')
  const stopped = loaderData.series.filter((series) => series.state === 'cancelled')
  const { schedule } = loaderData
  // A message about a series that is no longer listed as active shows at the top.
  const shown = actionData && active.some((series) => series.seriesId === actionData.seriesId)
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Recurring briefs</h1>
      <p className="mt-2 max-w-2xl text-sm text-slate-600">
        A recurring brief runs again on its schedule ({everyWords(schedule.defaultSeconds)} unless you choose another)
        and reports what changed since its last run. Between runs it sleeps and costs nothing. Runs may be{' '}
        {rangeWords(schedule.minSeconds)} apart, or on a cron schedule in your time zone. “Run now” brings its coming
        run forward, and the one after follows on its schedule from then. Pause it to skip runs; resume it to continue
        on its old schedule.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {active.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-600">
          No recurring briefs. Tick “Run again on a schedule” on a{' '}
          <Link to="/dashboard" className="text-indigo-700 underline">
            new brief
          </Link>{' '}
          to start one.
        </p>
      ) : (
        <ul className="mt-6 flex flex-col gap-4">
          {active.map((series) => (
            <SeriesCard
              key={series.seriesId}
              series={series}
              limits={schedule}
              result={shown && actionData.seriesId === series.seriesId ? actionData : undefined}
            />
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
