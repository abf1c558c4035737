// One recurring brief on the recurring briefs page: how often it runs and what it sends, when it runs
// next, and its forms: run now, change the schedule, pause or resume, stop. Plain forms, so all of
// it works without JavaScript.

import { Form, Link, useNavigation } from 'react-router'
import type { RunLimitRefusal } from '#app/components/brief-form.tsx'
import {
  CadenceFields,
  type CadenceValues,
  CRON,
  CUSTOM_EVERY,
  type ScheduleLimits,
} from '#app/components/cadence-fields.tsx'
import { MakeFeedButton } from '#app/components/feed-button.tsx'
import { Announcement } from '#app/components/focused-heading.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import type { CadenceView, SeriesView } from '#server/series/contract.ts'
import { budgetPhrase } from '#server/vocabulary/budget.ts'
import { cadenceOf, describeCadence, everyWords, parseEvery } from '#server/vocabulary/cadence.ts'

export type SeriesIntent = 'pause' | 'resume' | 'stop' | 'update' | 'run'

/** What the page's action answers about one series. */
export type SeriesActionResult = {
  seriesId: string
  error: string | null
  errors?: Record<string, string>
  values?: CadenceValues
  limit?: RunLimitRefusal | null
  saved?: boolean
  /** What a pause, resume or stop just did, said to the user where focus lands. */
  changed?: 'pause' | 'resume' | 'stop'
}

const CHANGED_WORDS = {
  pause: 'Paused: no runs start until you resume it.',
  resume: 'Resumed: it runs on its schedule again.',
  stop: 'Stopped for good.',
} as const

/** "every 6 hours", "at 09:00, only on Monday, in Europe/Berlin (“0 9 * * 1”)", or "every 7 days (the default)". */
export function cadenceWords(cadence: CadenceView, defaultSeconds: number): string {
  if (cadence.every === null && cadence.cron === null) return `${everyWords(defaultSeconds)} (the default)`
  return describeCadence(cadenceOf(cadence, defaultSeconds))
}

export const NOTIFY_WORDS = {
  changes: 'sends a report only when something changed',
  always: 'sends every report',
} as const

/** The schedule form's fields as the series stands. */
function currentValues(series: SeriesView, limits: ScheduleLimits): CadenceValues {
  const { every, cron, timeZone } = series.cadence
  const base = { every: '', cron: '', timeZone: '', notify: series.notify }
  if (cron !== null) return { ...base, cadence: CRON, cron, timeZone: timeZone ?? 'UTC' }
  if (every === null || parseEvery(every) === limits.defaultSeconds) return { ...base, cadence: '' }
  if (['1h', '6h', '1d', '7d', '30d'].includes(every)) return { ...base, cadence: every }
  return { ...base, cadence: CUSTOM_EVERY, every }
}

export function SeriesCard({
  series,
  limits,
  result,
}: {
  series: SeriesView
  limits: ScheduleLimits
  /** The action's answer, when it was about this series. */
  result?: SeriesActionResult
}) {
  const headingId = `series-${series.seriesId}-topic`
  const budget = budgetPhrase(series.brief)
  const errors = result?.errors ?? {}
  const changing = Object.keys(errors).length > 0
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
            <span>
              {series.brief.depth === 'quick' ? 'Quick' : 'Deep'}, runs{' '}
              {cadenceWords(series.cadence, limits.defaultSeconds)}
            </span>
            <span>· {NOTIFY_WORDS[series.notify]}</span>
            {series.emailDigest ? <span>· mailed to your verified addresses</span> : null}
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
          {series.state === 'sleeping' ? <SeriesAction series={series} intent="run" label="Run now" /> : null}
          {series.state === 'paused' ? (
            <SeriesAction series={series} intent="resume" label="Resume" />
          ) : (
            <SeriesAction series={series} intent="pause" label="Pause" />
          )}
          <SeriesAction series={series} intent="stop" label="Stop for good" danger />
          <MakeFeedButton subject={{ seriesId: series.seriesId }} />
        </div>
      </div>
      {result?.limit ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <strong className="font-semibold">Limit reached.</strong> {result.limit.message} The limit resets at{' '}
          <LocalTime iso={result.limit.resetsAt} seconds />.
        </p>
      ) : null}
      {result?.changed ? (
        // Focus comes here from the button the change replaced, and a screen reader says what happened.
        <Announcement key={`${result.changed}-${series.state}`} className="mt-3 text-sm text-green-800">
          {CHANGED_WORDS[result.changed]}
        </Announcement>
      ) : null}
      {result?.saved ? (
        <p role="status" className="mt-3 text-sm text-green-800">
          Saved: it now runs {cadenceWords(series.cadence, limits.defaultSeconds)} and {NOTIFY_WORDS[series.notify]}.
        </p>
      ) : null}
      <details open={changing} className="mt-3 rounded-md border border-slate-200 p-3 text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">Change how often it runs</summary>
        <Form method="post" noValidate className="mt-3 flex flex-col gap-4">
          <input type="hidden" name="seriesId" value={series.seriesId} />
          <CadenceFields
            values={changing && result?.values ? result.values : currentValues(series, limits)}
            errors={errors}
            limits={limits}
            idPrefix={`series-${series.seriesId}`}
          />
          <div>
            <button
              type="submit"
              name="intent"
              value="update"
              className="rounded-md bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
            >
              Save schedule
            </button>
          </div>
        </Form>
      </details>
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
  intent: SeriesIntent
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
