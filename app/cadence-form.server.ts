// The cadence fields of the new-brief form and the recurring briefs page, read into what BriefSchema
// and services.series.update take, and their errors in words for a person (the services' messages
// speak to API clients: "every must be from 1h to 30d").
import { type CadenceValues, CRON, CUSTOM_EVERY, type ScheduleLimits } from '#app/components/cadence-fields.tsx'
import type { Config } from '#server/config.ts'
import { durationWords, MAX_INTERVAL_SECONDS, rangeWords } from '#server/vocabulary/cadence.ts'

export type CadenceInput = { every?: string; cron?: string; timeZone?: string; notify?: string }

export function scheduleLimits(config: Config): ScheduleLimits {
  return {
    defaultSeconds: config.RECURRING_INTERVAL,
    minSeconds: config.SCHEDULE_MIN_INTERVAL,
    maxSeconds: MAX_INTERVAL_SECONDS,
  }
}

/**
 * The fields as typed (to show again) and as input: an empty choice is the server's default (no
 * `every`); a choice that is no preset goes through as `every`, for the schema to judge.
 */
export function readCadenceForm(form: FormData): { values: CadenceValues; input: CadenceInput } {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  const values: CadenceValues = {
    cadence: text('cadence'),
    every: text('every'),
    cron: text('cron'),
    timeZone: text('timeZone'),
    notify: text('notify'),
  }
  const notify = values.notify === '' ? undefined : values.notify
  if (values.cadence === CRON) {
    return {
      values,
      input: { cron: values.cron, timeZone: values.timeZone.trim() === '' ? 'UTC' : values.timeZone.trim(), notify },
    }
  }
  const every = values.cadence === CUSTOM_EVERY ? values.every : values.cadence
  return { values, input: { every: every === '' ? undefined : every, notify } }
}

/** A schema issue on one of the cadence fields, in words; undefined for other fields. */
export function cadenceFieldMessage(field: string, minSeconds: number): string | undefined {
  switch (field) {
    case 'every':
      return `Enter the time between runs as a number and h for hours or d for days, such as 12h or 3d (${rangeWords(minSeconds)}).`
    case 'cron':
      return 'Enter a cron schedule of five fields, at most 100 characters, such as 0 9 * * 1 for Mondays at 9:00.'
    case 'timeZone':
      return 'Enter a time zone such as Europe/Berlin or America/New_York, or leave it empty for UTC.'
    case 'notify':
      return 'Choose when to send a report.'
    default:
      return undefined
  }
}

/** The service's refusal of a cadence outside the allowed range (or a cron it cannot read), on its field. */
export function scheduleRefusalErrors(
  message: string,
  input: CadenceInput,
  minSeconds: number,
): Record<string, string> {
  const range = rangeWords(minSeconds)
  if (input.cron === undefined) {
    return { every: `Runs must be ${range} apart; “${(input.every ?? '').trim()}” is outside that range.` }
  }
  if (message.startsWith('timeZone')) return { timeZone: cadenceFieldMessage('timeZone', minSeconds) as string }
  if (message.includes('more often')) {
    return {
      cron: `This schedule runs more often than every ${durationWords(minSeconds)}; runs must be ${range} apart.`,
    }
  }
  if (message.includes('less often')) {
    return {
      cron: `This schedule runs less often than every ${durationWords(MAX_INTERVAL_SECONDS)}; runs must be ${range} apart.`,
    }
  }
  if (message.includes('never fires')) return { cron: 'This schedule never comes round; check its day and month.' }
  return {
    cron: 'Sextant cannot read this cron schedule: give five fields (minute hour day month weekday), such as 0 9 * * 1 for Mondays at 9:00.',
  }
}
