// How often a recurring brief runs: every N hours or days ("6h", "1d", "30d"), or on a cron
// expression in a time zone ("0 9 * * 1" in Europe/Berlin: Mondays at nine, summer or winter). The
// allowed range is an hour to 30 days between runs (SCHEDULE_MIN_INTERVAL lowers the floor, for
// tests and demos). Cron is read by croner (decision 028).
import { createHash } from 'node:crypto'
import { Cron } from 'croner'
import cronstrue from 'cronstrue'

export const MAX_INTERVAL_SECONDS = 30 * 86_400

export type Cadence = { everySeconds: number } | { cron: string; timeZone: string }

const UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const

/** "6h" -> 21600; undefined for text that is no duration. */
export function parseEvery(text: string): number | undefined {
  const match = /^\s*(\d{1,7})\s*([smhd])\s*$/i.exec(text)
  if (!match) return undefined
  return Number(match[1]) * UNITS[(match[2] as string).toLowerCase() as keyof typeof UNITS]
}

/** 21600 -> "6h": the largest unit that divides it. */
export function formatEvery(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds % size === 0) return `${seconds / size}${unit}`
  }
  return `${seconds}s`
}

/** The allowed range, in words, for messages. */
export function rangeText(minSeconds: number): string {
  return `from ${formatEvery(minSeconds)} to ${formatEvery(MAX_INTERVAL_SECONDS)}`
}

/** Why `every` cannot be used, or undefined when it can. */
export function everyProblem(text: string, minSeconds: number): string | undefined {
  const seconds = parseEvery(text)
  if (seconds === undefined) return `every must be a duration like 6h, 1d or 30d (${rangeText(minSeconds)})`
  if (seconds < minSeconds || seconds > MAX_INTERVAL_SECONDS) {
    return `every must be ${rangeText(minSeconds)} (got ${text.trim()})`
  }
  return undefined
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}

// Enough runs to see the shortest gap of any pattern whose gaps vary (weekdays, month ends).
const GAPS_CHECKED = 60

/** Why the cron expression cannot be used, or undefined when it can. */
export function cronProblem(
  expression: string,
  timeZone: string,
  minSeconds: number,
  now = new Date(),
): string | undefined {
  if (!isTimeZone(timeZone)) return `timeZone must be an IANA time zone such as Europe/Berlin (got ${timeZone})`
  let runs: Date[]
  try {
    runs = new Cron(expression, { timezone: timeZone, paused: true }).nextRuns(GAPS_CHECKED + 1, now)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return `cron must be a cron expression such as "0 9 * * 1" (minute hour day month weekday): ${reason}`
  }
  if (runs.length === 0) return 'cron never fires'
  for (let index = 1; index < runs.length; index++) {
    const gap = ((runs[index] as Date).getTime() - (runs[index - 1] as Date).getTime()) / 1000
    if (gap < minSeconds)
      return `cron fires more often than every ${formatEvery(minSeconds)}; runs must be ${rangeText(minSeconds)} apart`
  }
  const gap = longGapWithinAYear(new Cron(expression, { timezone: timeZone, paused: true }), runs[0] as Date)
  if (gap) {
    const day = (date: Date) => date.toISOString().slice(0, 10)
    return (
      `cron fires less often than every ${formatEvery(MAX_INTERVAL_SECONDS)}: no run from ${day(gap.from)} to ` +
      `${gap.to ? day(gap.to) : 'ever after'}; runs must be ${rangeText(minSeconds)} apart`
    )
  }
  return undefined
}

const YEAR_SECONDS = 366 * 86_400
/** A gap longer than the maximum holds a whole window of half of it with no run at its start. */
const PROBE_SECONDS = MAX_INTERVAL_SECONDS / 2

/**
 * The first gap between runs longer than the maximum in the year from `first` (a pattern's gaps vary:
 * "the fifth Monday" fires some months and not others). Probing every half-maximum finds every such
 * gap, whatever runs between the probes, in 25 look-ups: past a probe with no run within half the
 * maximum, the run before it and the run after it measure the gap exactly.
 */
function longGapWithinAYear(cron: Cron, first: Date): { from: Date; to: Date | null } | undefined {
  const end = first.getTime() + YEAR_SECONDS * 1000
  for (let probe = first.getTime(); probe <= end; probe += PROBE_SECONDS * 1000) {
    const next = cron.nextRun(new Date(probe))
    if (next && next.getTime() - probe <= PROBE_SECONDS * 1000) continue
    // The run at or before the probe (runs fall on whole seconds; the first one is a probe).
    const previous = cron.previousRuns(1, new Date(probe + 1000))[0] ?? first
    if (!next || next.getTime() - previous.getTime() > MAX_INTERVAL_SECONDS * 1000) return { from: previous, to: next }
  }
  return undefined
}

/** Why a recurring brief's cadence cannot be used on this server, or undefined when it can. */
export function scheduleProblem(
  brief: { every?: string; cron?: string; timeZone?: string },
  minSeconds: number,
): string | undefined {
  if (brief.every !== undefined) return everyProblem(brief.every, minSeconds)
  if (brief.cron !== undefined) return cronProblem(brief.cron, brief.timeZone ?? 'UTC', minSeconds)
  return undefined
}

/** The field a cadence is given in: `cron` when the brief has one, else `every`. */
export function cadenceField(brief: { cron?: string }): 'every' | 'cron' {
  return brief.cron !== undefined ? 'cron' : 'every'
}

/**
 * When the next run is due after `after` (a run's end, or now). A cron's times are moved `offsetMs`
 * later (spreadOffsetMs), so that the series of every account that asked for "Mondays at nine" do
 * not all wake in one second; an `every` is already spread by when each series' last run ended.
 */
export function nextRunAfter(cadence: Cadence, after: Date, offsetMs = 0): Date {
  if ('everySeconds' in cadence) return new Date(after.getTime() + cadence.everySeconds * 1000)
  // The time after `after` of the moved schedule: the cron's next time after `after - offset`, moved.
  const next = new Cron(cadence.cron, { timezone: cadence.timeZone, paused: true }).nextRun(
    new Date(after.getTime() - offsetMs),
  )
  // Checked when the series was made; a pattern that ran out of dates (a past year) sleeps the maximum.
  return next ? new Date(next.getTime() + offsetMs) : new Date(after.getTime() + MAX_INTERVAL_SECONDS * 1000)
}

/**
 * How far a series' cron times are moved within `spreadSeconds` (SCHEDULE_SPREAD): drawn from its
 * id, so the same series always wakes at the same moment and different ones spread evenly.
 */
export function spreadOffsetMs(seriesId: string, spreadSeconds: number): number {
  if (spreadSeconds <= 0) return 0
  const draw = createHash('sha256').update(seriesId).digest().readUIntBE(0, 6)
  return draw % (spreadSeconds * 1000)
}

/** 21600 -> "6 hours", 86400 -> "1 day": the largest unit that divides it, in words. */
export function durationWords(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ]
  const [size, unit] = units.find(([size]) => seconds % size === 0) ?? [1, 'second']
  const count = seconds / size
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

/** "every 6 hours", "every hour". */
export function everyWords(seconds: number): string {
  const words = durationWords(seconds)
  return words.startsWith('1 ') ? `every ${words.slice(2)}` : `every ${words}`
}

/** The allowed range in words, for pages: "from 1 hour to 30 days". */
export function rangeWords(minSeconds: number): string {
  return `from ${durationWords(minSeconds)} to ${durationWords(MAX_INTERVAL_SECONDS)}`
}

/**
 * In words, for pages and messages: "every 6 hours", "at 09:00, only on Monday, in Europe/Berlin
 * (“0 9 * * 1”)". The cron expression is read out by cronstrue and kept beside it, exact.
 */
export function describeCadence(cadence: Cadence): string {
  if ('everySeconds' in cadence) return everyWords(cadence.everySeconds)
  return `${cronWords(cadence.cron)}, in ${cadence.timeZone} (“${cadence.cron}”)`
}

function cronWords(expression: string): string {
  try {
    const words = cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true })
    return words.charAt(0).toLowerCase() + words.slice(1)
  } catch {
    return 'on a cron schedule' // an expression croner reads and cronstrue does not
  }
}

/** The cadence a brief or series view names; neither every nor cron: every `defaultSeconds`. */
export function cadenceOf(
  settings: { every?: string | null; cron?: string | null; timeZone?: string | null },
  defaultSeconds: number,
): Cadence {
  if (settings.cron) return { cron: settings.cron, timeZone: settings.timeZone ?? 'UTC' }
  const seconds = settings.every ? parseEvery(settings.every) : undefined
  return { everySeconds: seconds ?? defaultSeconds }
}
