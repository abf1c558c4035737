// How often a recurring brief runs, and which runs it delivers: the new-brief form and each card of
// the recurring briefs page use these fields. They work without JavaScript; with it, an empty time
// zone is filled with the browser's own.

import { useEffect, useRef } from 'react'
import { Field, RadioCards, SelectField } from '#app/components/form.tsx'
import { durationWords, everyWords, parseEvery } from '#server/vocabulary/cadence.ts'

export type CadenceValues = { cadence: string; every: string; cron: string; timeZone: string; notify: string }

export const DEFAULT_CADENCE_VALUES: CadenceValues = {
  cadence: '',
  every: '',
  cron: '',
  timeZone: '',
  notify: 'changes',
}

/** This server's default cadence and shortest allowed one (RECURRING_INTERVAL, SCHEDULE_MIN_INTERVAL), in seconds. */
export type ScheduleLimits = { defaultSeconds: number; minSeconds: number; maxSeconds: number }

/** The `cadence` choices that are not an interval: typed by the person. */
export const CUSTOM_EVERY = 'custom'
export const CRON = 'cron'

const PRESETS = ['1h', '6h', '1d', '7d', '30d']

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The choices: the server's default (an empty value), the common intervals it allows, custom, cron. */
export function cadenceOptions(limits: ScheduleLimits): Array<{ value: string; label: string }> {
  const presets = PRESETS.filter((every) => {
    const seconds = parseEvery(every) as number
    return seconds !== limits.defaultSeconds && seconds >= limits.minSeconds && seconds <= limits.maxSeconds
  })
  return [
    { value: '', label: `${capitalized(everyWords(limits.defaultSeconds))} (the default)` },
    ...presets.map((every) => ({ value: every, label: capitalized(everyWords(parseEvery(every) as number)) })),
    { value: CUSTOM_EVERY, label: 'Another interval (type it below)' },
    { value: CRON, label: 'On a cron schedule (type it below)' },
  ]
}

const NOTIFY = [
  { value: 'changes', label: 'Only when something changed', detail: 'A run that finds nothing new is kept, not sent.' },
  { value: 'always', label: 'After every run', detail: 'Every report is sent, even one that found nothing new.' },
]

export function CadenceFields({
  values,
  errors,
  limits,
  idPrefix = 'field',
}: {
  values: CadenceValues
  errors: Record<string, string | undefined>
  limits: ScheduleLimits
  /** Unique per form on the page. */
  idPrefix?: string
}) {
  const timeZone = useRef<HTMLInputElement>(null)
  useEffect(() => {
    // Progressive: without JavaScript the field stays empty, which means UTC.
    const input = timeZone.current?.querySelector('input')
    if (input && input.value === '') input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ''
  }, [])
  const range = `from ${durationWords(limits.minSeconds)} to ${durationWords(limits.maxSeconds)}`
  const id = (name: string) => `${idPrefix}-${name}`
  return (
    <div className="flex flex-col gap-4">
      <p className="text-xs text-slate-500">Runs may be {range} apart.</p>
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField
          id={id('cadence')}
          name="cadence"
          label="How often"
          options={cadenceOptions(limits)}
          defaultValue={values.cadence}
          error={errors.cadence}
        />
        <Field
          id={id('every')}
          name="every"
          label="Another interval"
          defaultValue={values.every}
          error={errors.every}
          hint={`With “Another interval”: a number and h for hours or d for days, such as 12h or 3d (${range}).`}
        />
        <Field
          id={id('cron')}
          name="cron"
          label="Cron schedule"
          defaultValue={values.cron}
          error={errors.cron}
          hint="With “On a cron schedule”: minute hour day month weekday, such as 0 9 * * 1 for Mondays at 9:00."
        />
        <div ref={timeZone}>
          <Field
            id={id('timeZone')}
            name="timeZone"
            label="Time zone"
            defaultValue={values.timeZone}
            error={errors.timeZone}
            hint="The zone the cron schedule is read in, such as Europe/Berlin. Left empty: UTC."
          />
        </div>
      </div>
      <RadioCards
        legend="Send a report"
        name="notify"
        options={NOTIFY}
        value={values.notify}
        error={errors.notify}
        errorId={id('notify-error')}
        compact
      />
    </div>
  )
}
