import { expect, test } from 'vitest'
import {
  cadenceOf,
  cronProblem,
  describeCadence,
  everyProblem,
  formatEvery,
  nextRunAfter,
  parseEvery,
  rangeWords,
} from '#server/research/cadence.ts'

const HOUR = 3600

test('every reads hours, days and minutes, and is held to the allowed range', () => {
  expect(parseEvery('6h')).toBe(6 * HOUR)
  expect(parseEvery(' 30D ')).toBe(30 * 86_400)
  expect(parseEvery('90m')).toBe(5400)
  expect(parseEvery('soon')).toBeUndefined()
  expect(parseEvery('1.5h')).toBeUndefined()
  expect(formatEvery(6 * HOUR)).toBe('6h')
  expect(formatEvery(86_400)).toBe('1d')
  expect(formatEvery(5400)).toBe('90m')
  expect(everyProblem('1h', HOUR)).toBeUndefined()
  expect(everyProblem('30d', HOUR)).toBeUndefined()
  expect(everyProblem('59m', HOUR)).toBe('every must be from 1h to 30d (got 59m)')
  expect(everyProblem('31d', HOUR)).toBe('every must be from 1h to 30d (got 31d)')
  expect(everyProblem('2s', 1)).toBeUndefined()
})

test('cron is read in its time zone, across a daylight-saving change', () => {
  // Mondays at 9:00 in Berlin: 8:00 UTC in winter, 7:00 UTC in summer.
  const cadence = { cron: '0 9 * * 1', timeZone: 'Europe/Berlin' }
  expect(nextRunAfter(cadence, new Date('2026-11-23T12:00:00Z')).toISOString()).toBe('2026-11-30T08:00:00.000Z')
  expect(nextRunAfter(cadence, new Date('2027-03-24T12:00:00Z')).toISOString()).toBe('2027-03-29T07:00:00.000Z')
  expect(nextRunAfter({ everySeconds: 6 * HOUR }, new Date('2026-11-23T12:00:00Z')).toISOString()).toBe(
    '2026-11-23T18:00:00.000Z',
  )
})

test('a cron expression that is malformed, too frequent, too rare or in no time zone is refused, saying why', () => {
  const now = new Date('2026-11-23T12:00:00Z')
  expect(cronProblem('0 9 * * 1', 'UTC', HOUR, now)).toBeUndefined()
  expect(cronProblem('0 */2 * * *', 'UTC', HOUR, now)).toBeUndefined()
  expect(cronProblem('*/30 * * * *', 'UTC', HOUR, now)).toMatch(/fires more often than every 1h/)
  // 9:00 and 9:30 on weekdays: most gaps are long, one each day is not.
  expect(cronProblem('0,30 9 * * 1-5', 'UTC', HOUR, now)).toMatch(/fires more often than every 1h/)
  expect(cronProblem('0 0 1 1 *', 'UTC', HOUR, now)).toMatch(/fires less often than every 30d/)
  // Gaps are checked over a year, not only the first one: the fifth Monday, Tuesday or Wednesday of
  // a month comes round in some months and not in others (up to 89 days apart).
  expect(cronProblem('0 0 * * 1#5,2#5,3#5', 'UTC', HOUR, now)).toMatch(/fires less often than every 30d: no run from/)
  // A month's first day is 31 days after the last one's in seven months of the year.
  expect(cronProblem('0 9 1 * *', 'UTC', HOUR, new Date('2026-11-15T00:00:00Z'))).toMatch(
    /no run from 2026-12-01 to 2027-01-01/,
  )
  expect(cronProblem('0 9 1,15 * *', 'UTC', HOUR, now)).toBeUndefined()

  expect(cronProblem('every monday', 'UTC', HOUR, now)).toMatch(/^cron must be a cron expression/)
  expect(cronProblem('0 9 * * 1', 'Mars/Olympus', HOUR, now)).toMatch(/^timeZone must be an IANA time zone/)
  expect(cronProblem('*/2 * * * * *', 'UTC', 1, now)).toBeUndefined()
})

test('a cadence reads in words, for pages and messages', () => {
  expect(describeCadence({ everySeconds: 6 * HOUR })).toBe('every 6 hours')
  expect(describeCadence({ everySeconds: HOUR })).toBe('every hour')
  expect(describeCadence(cadenceOf({}, 7 * 86_400))).toBe('every 7 days')
  expect(describeCadence(cadenceOf({ cron: '0 9 * * 1', timeZone: 'Europe/Berlin' }, 1))).toBe(
    'at 09:00, only on Monday, in Europe/Berlin (“0 9 * * 1”)',
  )
  expect(rangeWords(HOUR)).toBe('from 1 hour to 30 days')
})
