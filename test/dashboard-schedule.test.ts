// How often a recurring brief runs, chosen on the pages as a browser posts their forms: the new-brief
// form's schedule, the recurring briefs page's "Save schedule" and "Run now", and their errors in words.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { waitForRun } from '#test/support/runs.ts'

let app: TestApp
beforeAll(async () => {
  // A worker, so a first run ends and its series sleeps until its next run.
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
})
afterAll(() => app.stop())

type User = Awaited<ReturnType<typeof createTestAccount>>

async function signedIn() {
  const user = await createTestAccount(app.db)
  return { user, cookie: await logIn(app.url, user.email, user.password) }
}

async function page(path: string, cookie: string) {
  const response = await app.fetch(path, { headers: { Cookie: cookie } })
  return (await response.text()).replaceAll('<!-- -->', '')
}

async function seriesOf(user: User) {
  const body = await (await app.fetch('/api/series', { headers: user.auth })).json()
  return body.series as Array<{
    seriesId: string
    topic: string
    state: string
    notify: string
    cadence: { every: string | null; cron: string | null; timeZone: string | null }
    lastRunId: string | null
  }>
}

/** Starts a recurring brief from the form and waits for its first run to end: the series sleeps. */
async function sleepingSeries(user: User, cookie: string, topic: string, fields: Record<string, string> = {}) {
  const response = await postForm(
    app.url,
    '/dashboard',
    { topic, depth: 'quick', timeframe: 'all', recurring: 'on', ...fields },
    cookie,
  )
  expect(response.status).toBe(302)
  const runId = (response.headers.get('location') ?? '').split('/').pop() as string
  await waitForRun(app.fetch, user.auth, runId)
  const series = (await seriesOf(user)).find((one) => one.topic === topic)
  expect(series?.state).toBe('sleeping')
  return series as NonNullable<typeof series>
}

const runCount = async () =>
  Number(
    (
      await app.db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

test('the new-brief form schedules a brief every 6 hours, on a cron in a time zone, or by default', async () => {
  const { user, cookie } = await signedIn()
  const form = await page('/dashboard', cookie)
  expect(form).toContain('Run again on a schedule')
  expect(form).toMatch(/<label for="field-cadence"[^>]*>How often<\/label>/)
  expect(form).toMatch(/<option value=""[^>]*>Every 7 days \(the default\)<\/option>/)
  expect(form).toMatch(/<option value="6h"[^>]*>Every 6 hours<\/option>/)
  expect(form).toContain('Runs may be from 1 hour to 30 days apart.')

  const post = (topic: string, fields: Record<string, string>) =>
    postForm(app.url, '/dashboard', { topic, depth: 'quick', recurring: 'on', ...fields }, cookie)
  expect((await post('six hourly', { cadence: '6h', notify: 'always' })).status).toBe(302)
  expect(
    (await post('monday mornings', { cadence: 'cron', cron: '0 9 * * 1', timeZone: 'Europe/Berlin' })).status,
  ).toBe(302)
  expect((await post('every twelve', { cadence: 'custom', every: '12h' })).status).toBe(302)
  expect((await post('the default', { cadence: '', every: '', cron: '', timeZone: '' })).status).toBe(302)
  // Unticked, the schedule fields are ignored: one run, no series.
  const single = await postForm(app.url, '/dashboard', { topic: 'just once', depth: 'quick', cadence: '6h' }, cookie)
  expect(single.status).toBe(302)

  const byTopic = Object.fromEntries((await seriesOf(user)).map((series) => [series.topic, series]))
  expect(byTopic['six hourly']).toMatchObject({ cadence: { every: '6h', cron: null }, notify: 'always' })
  expect(byTopic['monday mornings']).toMatchObject({
    cadence: { every: null, cron: '0 9 * * 1', timeZone: 'Europe/Berlin' },
    notify: 'changes',
  })
  expect(byTopic['every twelve']?.cadence.every).toBe('12h')
  expect(byTopic['the default']).toMatchObject({ cadence: { every: null, cron: null }, notify: 'changes' })
  expect(byTopic['just once']).toBeUndefined()

  const listed = await page('/dashboard/series', cookie)
  expect(listed).toContain('runs every 6 hours')
  expect(listed).toContain('runs at 09:00, only on Monday, in Europe/Berlin (“0 9 * * 1”)')
  expect(listed).toContain('runs every 7 days (the default)')
  expect(listed).toContain('sends every report')
  expect(listed).toContain('sends a report only when something changed')
})

test('a cadence out of range or unreadable comes back beside its field in words, and starts nothing', async () => {
  const { cookie } = await signedIn()
  const before = await runCount()
  const cases: Array<[Record<string, string>, string, string]> = [
    [
      { cadence: 'custom', every: '30m' },
      'every',
      'Runs must be from 1 hour to 30 days apart; “30m” is outside that range.',
    ],
    [
      { cadence: 'custom', every: 'soon' },
      'every',
      'Enter the time between runs as a number and h for hours or d for days',
    ],
    [{ cadence: 'custom', every: '31d' }, 'every', '“31d” is outside that range'],
    [{ cadence: 'cron', cron: '*/10 * * * *' }, 'cron', 'This schedule runs more often than every 1 hour'],
    [{ cadence: 'cron', cron: 'every monday' }, 'cron', 'Sextant cannot read this cron schedule'],
    [{ cadence: 'cron', cron: '0 9 * * 1', timeZone: 'Mars/Olympus' }, 'timeZone', 'Enter a time zone such as'],
    [{ cadence: 'hourly-ish' }, 'every', 'Enter the time between runs'],
    [{ cadence: '6h', notify: 'sometimes' }, 'notify', 'Choose when to send a report.'],
  ]
  for (const [fields, field, message] of cases) {
    const response = await postForm(
      app.url,
      '/dashboard',
      { topic: 'bad cadence', depth: 'quick', recurring: 'on', ...fields },
      cookie,
    )
    const html = (await response.text()).replaceAll('<!-- -->', '')
    expect(response.status, JSON.stringify(fields)).toBe(400)
    expect(html, JSON.stringify(fields)).toContain(`id="field-${field}-error"`)
    expect(html, JSON.stringify(fields)).toContain(message)
    // What was typed comes back.
    if (fields.every) expect(html).toContain(`value="${fields.every}"`)
  }
  expect(await runCount()).toBe(before)
})

test('the recurring page changes a series’ cadence and notify, and refuses one out of range in words', async () => {
  const { user, cookie } = await signedIn()
  const series = await sleepingSeries(user, cookie, 'change my schedule')
  const { seriesId } = series
  const saved = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'update', seriesId, cadence: 'custom', every: '12h', notify: 'always' },
    cookie,
  )
  expect(saved.status).toBe(200)
  expect((await saved.text()).replaceAll('<!-- -->', '')).toContain(
    'Saved: it now runs every 12 hours and sends every report.',
  )
  let now = (await seriesOf(user)).find((one) => one.seriesId === seriesId)
  expect(now).toMatchObject({ cadence: { every: '12h', cron: null }, notify: 'always', state: 'sleeping' })

  const cron = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'update', seriesId, cadence: 'cron', cron: '30 7 * * *', timeZone: 'Asia/Tokyo', notify: 'changes' },
    cookie,
  )
  expect(cron.status).toBe(200)
  now = (await seriesOf(user)).find((one) => one.seriesId === seriesId)
  expect(now).toMatchObject({ cadence: { every: null, cron: '30 7 * * *', timeZone: 'Asia/Tokyo' }, notify: 'changes' })
  // The form shows the series as it stands.
  const listed = await page('/dashboard/series', cookie)
  expect(listed).toContain('runs at 07:30, in Asia/Tokyo (“30 7 * * *”)')
  expect(listed).toContain(`id="series-${seriesId}-cron"`)
  expect(listed).toContain('value="30 7 * * *"')

  const tooOften = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'update', seriesId, cadence: 'custom', every: '20m', notify: 'changes' },
    cookie,
  )
  expect(tooOften.status).toBe(400)
  const refused = (await tooOften.text()).replaceAll('<!-- -->', '')
  expect(refused).toContain('Runs must be from 1 hour to 30 days apart; “20m” is outside that range.')
  expect(refused).toContain(`id="series-${seriesId}-every-error"`)
  now = (await seriesOf(user)).find((one) => one.seriesId === seriesId)
  expect(now?.cadence.cron).toBe('30 7 * * *')

  // Back to the default: this server's 7 days.
  const back = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'update', seriesId, cadence: '', notify: 'changes' },
    cookie,
  )
  expect(back.status).toBe(200)
  now = (await seriesOf(user)).find((one) => one.seriesId === seriesId)
  expect(now?.cadence).toMatchObject({ every: '7d', cron: null })

  // Another account's series is no series.
  const other = await signedIn()
  const foreign = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'update', seriesId, cadence: '1h', notify: 'always' },
    other.cookie,
  )
  expect(foreign.status).toBe(404)
  expect((await seriesOf(user)).find((one) => one.seriesId === seriesId)?.notify).toBe('changes')
})

test('"Run now" starts the series’ next run from the page; paused, stopped or foreign series get 409 or 404 in words', async () => {
  const { user, cookie } = await signedIn()
  const series = await sleepingSeries(user, cookie, 'run me now')
  const { seriesId } = series
  expect(await page('/dashboard/series', cookie)).toContain('Run now: run me now')

  const ran = await postForm(app.url, '/dashboard/series', { intent: 'run', seriesId }, cookie)
  expect(ran.status).toBe(302)
  const runId = (ran.headers.get('location') ?? '').replace('/dashboard/runs/', '')
  const row = await app.db
    .selectFrom('runs')
    .select(['series_id', 'source', 'series_slot'])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow()
  expect(row).toMatchObject({ series_id: seriesId, source: 'dashboard', series_slot: 1 })
  await waitForRun(app.fetch, user.auth, runId)

  expect((await postForm(app.url, '/dashboard/series', { intent: 'pause', seriesId }, cookie)).status).toBe(200)
  const paused = await postForm(app.url, '/dashboard/series', { intent: 'run', seriesId }, cookie)
  expect(paused.status).toBe(409)
  expect(await paused.text()).toContain('This recurring brief is paused: resume it first, then run it now.')

  const other = await signedIn()
  const foreign = await postForm(app.url, '/dashboard/series', { intent: 'run', seriesId }, other.cookie)
  expect(foreign.status).toBe(404)

  expect((await postForm(app.url, '/dashboard/series', { intent: 'stop', seriesId }, cookie)).status).toBe(200)
  const stopped = await postForm(app.url, '/dashboard/series', { intent: 'run', seriesId }, cookie)
  expect(stopped.status).toBe(409)
  expect(await stopped.text()).toContain('This recurring brief was stopped; start a new brief instead.')
  const runs = await app.db.selectFrom('runs').select('id').where('series_id', '=', seriesId).execute()
  expect(runs).toHaveLength(2)
})
