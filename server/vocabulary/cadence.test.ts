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
  spreadOffsetMs,
} from '#server/vocabulary/cadence.ts'

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

test('series due at one cron time are spread over the window, each always at the same moment', () => {
  const mondays = { cron: '0 9 * * 1', timeZone: 'UTC' }
  const offset = 197_250 // 3 min 17.25 s
  // Moved later by the offset, and the moved time is the next one after `after`, this week or next.
  expect(nextRunAfter(mondays, new Date('2026-11-30T08:00:00Z'), offset).toISOString()).toBe('2026-11-30T09:03:17.250Z')
  expect(nextRunAfter(mondays, new Date('2026-11-30T09:01:00Z'), offset).toISOString()).toBe('2026-11-30T09:03:17.250Z')
  expect(nextRunAfter(mondays, new Date('2026-11-30T09:03:18Z'), offset).toISOString()).toBe('2026-12-07T09:03:17.250Z')
  // An `every` is spread by when each series' last run ended, so it is not moved.
  expect(nextRunAfter({ everySeconds: HOUR }, new Date('2026-11-30T08:00:00Z'), offset).toISOString()).toBe(
    '2026-11-30T09:00:00.000Z',
  )

  // A series' offset depends on its id alone, lies within the window, and a thousand series fill it
  // evenly: no tenth of a five-minute window gets fewer than half or more than twice its share.
  const ids = Array.from({ length: 1000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
  const offsets = ids.map((id) => spreadOffsetMs(id, 300))
  expect(ids.map((id) => spreadOffsetMs(id, 300))).toEqual(offsets)
  expect(offsets.every((each) => each >= 0 && each < 300_000)).toBe(true)
  const tenths = Array.from({ length: 10 }, (_, tenth) => offsets.filter((each) => Math.floor(each / 30_000) === tenth))
  for (const tenth of tenths) expect(tenth.length).toBeGreaterThan(50)
  for (const tenth of tenths) expect(tenth.length).toBeLessThan(200)
  // No window, no spread.
  expect(spreadOffsetMs(ids[0] as string, 0)).toBe(0)
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
