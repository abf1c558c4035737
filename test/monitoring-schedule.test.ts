// Cadences on the real job system with a short clock: SCHEDULE_MIN_INTERVAL=1s lets a series run
// every 2 seconds, or on a cron expression with a seconds field, where production allows 1h to 30d.
import { expect, test } from 'vitest'
import { SERIES_WAKE } from '#server/jobs/queues.ts'
import { createSeriesBriefs } from '#server/series/repository.ts'
import type { BriefInput } from '#server/vocabulary/brief.ts'
import { spreadOffsetMs } from '#server/vocabulary/cadence.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

// No spread: a cron series here fires on its ticks (the spread has its own test below).
const env = { SCHEDULE_MIN_INTERVAL: '1s', RATE_LIMIT_RUNS_PER_HOUR: '1000', SCHEDULE_SPREAD: '0' }
type Auth = Record<string, string>

function seriesRuns(app: TestApp, seriesId: string) {
  return app.db
    .selectFrom('runs')
    .select(['id', 'series_slot', 'status', 'source', 'created_at', 'started_at', 'finished_at'])
    .where('series_id', '=', seriesId)
    .orderBy('series_slot')
    .execute()
}

async function waitForSeriesRuns(app: TestApp, seriesId: string, count: number, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const runs = await seriesRuns(app, seriesId)
    if (runs.length >= count && runs.slice(0, count).every((run) => run.status !== 'running')) return runs
    if (performance.now() > deadline) throw new Error(`series ${seriesId} has ${runs.length} runs, wanted ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function startSeries(app: TestApp, auth: Auth, brief: Record<string, unknown>) {
  const { response, body } = await postBrief(app.fetch, auth, {
    topic: 'heat pumps in cold climates',
    depth: 'quick',
    timeframe: 'all',
    recurring: true,
    ...brief,
  } as BriefInput)
  expect(response.status).toBe(202)
  await waitForRun(app.fetch, auth, body.runId)
  const run = (await (await app.fetch(`/api/briefs/${body.runId}`, { headers: auth })).json()) as {
    recurring: { seriesId: string }
  }
  return run.recurring.seriesId
}

function patchSeries(app: TestApp, auth: Auth, seriesId: string, body: unknown) {
  return app.fetch(`/api/series/${seriesId}`, {
    method: 'PATCH',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

test('an every-2s series runs each slot once, on time after the run before it ends', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const seriesId = await startSeries(app, user.auth, { every: '2s' })
    const series = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
    expect(series).toMatchObject({ cadence: { every: '2s', cron: null, timeZone: null }, notify: 'changes' })

    const runs = await waitForSeriesRuns(app, seriesId, 3)
    expect(runs.slice(0, 3).map((run) => [run.series_slot, run.source])).toEqual([
      [0, 'api'],
      [1, 'schedule'],
      [2, 'schedule'],
    ])
    for (const [before, after] of [
      [runs[0], runs[1]],
      [runs[1], runs[2]],
    ]) {
      const waited = (after?.created_at.getTime() ?? 0) - (before?.finished_at?.getTime() ?? 0)
      // Not before the slot is due; late only by the job system's pickup (generous on a busy machine).
      expect(waited).toBeGreaterThanOrEqual(1900)
      expect(waited).toBeLessThan(12_000)
    }
    // A duplicate wake of a slot that has its run starts nothing.
    await app.jobs.send(SERIES_WAKE, { seriesId, slot: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const slots = (await seriesRuns(app, seriesId)).map((run) => run.series_slot)
    expect(new Set(slots).size).toBe(slots.length)
  } finally {
    await app.stop()
  }
})

test('a cron series fires on its ticks, once each, in its time zone', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    // Every third second (croner's six-field form), read in a zone with a fractional offset.
    const seriesId = await startSeries(app, user.auth, { cron: '*/3 * * * * *', timeZone: 'Asia/Kolkata' })
    const runs = await waitForSeriesRuns(app, seriesId, 3)
    const ticks = runs.slice(0, 3).map((run) => Math.floor(run.created_at.getTime() / 3000))
    for (const [index, run] of runs.slice(1, 3).entries()) {
      // Each scheduled run starts on a tick after the run before it ended: never between ticks early.
      const ended = runs[index]?.finished_at?.getTime() ?? 0
      expect(run.created_at.getTime()).toBeGreaterThan(ended)
      expect((ticks[index + 1] ?? 0) * 3000).toBeGreaterThanOrEqual(Math.floor(ended / 3000) * 3000)
      // Picked up within the tick it fired on, give or take the job system's pickup.
      expect(run.created_at.getTime() - (ticks[index + 1] ?? 0) * 3000).toBeLessThan(3000)
    }
    const slots = runs.map((run) => run.series_slot)
    expect(new Set(slots).size).toBe(slots.length)
    const series = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
    expect(series.cadence).toEqual({ every: null, cron: '*/3 * * * * *', timeZone: 'Asia/Kolkata' })
  } finally {
    await app.stop()
  }
})

test('series due at one cron time wake spread over SCHEDULE_SPREAD, each at its own moment, shown as its next run', async () => {
  const app = await startTestApp({ env: { ...env, SCHEDULE_SPREAD: '10m' } })
  try {
    const user = await createTestAccount(app.db)
    for (let i = 0; i < 3; i++) {
      const seriesId = await startSeries(app, user.auth, { cron: '0 9 * * 1', timeZone: 'UTC' })
      const series = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
      const offset = spreadOffsetMs(seriesId, 600)
      expect(offset).toBeGreaterThanOrEqual(0)
      expect(offset).toBeLessThan(600_000)
      // Monday at nine, moved by the series' own offset: the next such time from now.
      const slot = new Date(Date.parse(series.nextRunAt) - offset)
      expect([slot.getUTCDay(), slot.toISOString().slice(11)]).toEqual([1, '09:00:00.000Z'])
      expect(Date.parse(series.nextRunAt)).toBeGreaterThan(Date.now())
      expect(Date.parse(series.nextRunAt) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000 + 600_000)
    }
  } finally {
    await app.stop()
  }
})

test('run now takes the pending slot, so the schedule moves once; a cadence change reschedules a sleeping series', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const seriesId = await startSeries(app, user.auth, { every: '1h', notify: 'always' })
    const before = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
    expect(before).toMatchObject({ state: 'sleeping', notify: 'always' })

    const now = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
    expect(now.status).toBe(202)
    const started = await now.json()
    expect(now.headers.get('location')).toBe(`/api/briefs/${started.runId}`)
    expect((await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })).status).toBe(409)
    await waitForRun(app.fetch, user.auth, started.runId)
    const runs = await seriesRuns(app, seriesId)
    expect(runs.map((run) => [run.series_slot, run.source])).toEqual([
      [0, 'api'],
      [1, 'api'],
    ])
    // The next run is one hour after this one ended, not after the slot it took.
    const after = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
    const due = Date.parse(after.nextRunAt) - (runs[1]?.finished_at?.getTime() ?? 0)
    expect(Math.abs(due - 3600_000)).toBeLessThan(1000)
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(Date.parse(before.nextRunAt))
    // The taken slot's own wake, when it comes, finds its run and starts nothing.
    await app.jobs.send(SERIES_WAKE, { seriesId, slot: 1 })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await seriesRuns(app, seriesId)).toHaveLength(2)

    const changed = await patchSeries(app, user.auth, seriesId, { every: '2s' })
    expect(changed.status).toBe(200)
    expect(await changed.json()).toMatchObject({ cadence: { every: '2s' }, brief: { every: '2s' } })
    await waitForSeriesRuns(app, seriesId, 3)
    const toCron = await patchSeries(app, user.auth, seriesId, { cron: '0 9 * * 1', timeZone: 'Europe/Berlin' })
    expect(await toCron.json()).toMatchObject({
      cadence: { every: null, cron: '0 9 * * 1', timeZone: 'Europe/Berlin' },
    })

    await patchSeries(app, user.auth, seriesId, { status: 'paused' })
    const paused = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
    expect(paused.status).toBe(409)
    expect((await paused.json()).detail).toMatch(/paused; resume it first/)
    const other = await createTestAccount(app.db)
    expect((await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: other.auth })).status).toBe(404)
  } finally {
    await app.stop()
  }
})

test('a cadence outside 1h to 30d is a 400 validation problem that names the field and the range', async () => {
  const app = await startTestApp()
  try {
    const user = await createTestAccount(app.db)
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ every: '30m' }, /every must be from 1h to 30d \(got 30m\)/],
      [{ every: '31d' }, /every must be from 1h to 30d \(got 31d\)/],
      [{ cron: '*/10 * * * *' }, /fires more often than every 1h; runs must be from 1h to 30d apart/],
      [{ cron: '0 0 1 1 *' }, /fires less often than every 30d/],
    ]
    for (const [cadence, detail] of cases) {
      const brief = { topic: 'x', recurring: true, ...cadence } as BriefInput
      const { response, body } = await postBrief(app.fetch, user.auth, brief)
      expect(response.status, JSON.stringify(cadence)).toBe(400)
      // The same shape as a schema's refusal: the field, and what is wrong with it.
      const problem = body as unknown as {
        type: string
        detail: string
        errors: Array<{ path: string; message: string }>
      }
      expect(problem.type).toBe('https://sextant.dev/problems/validation')
      expect(problem.detail).toMatch(detail)
      expect(problem.errors).toEqual([{ path: Object.keys(cadence)[0], message: problem.detail }])
    }
    const malformed = await postBrief(app.fetch, user.auth, { topic: 'x', every: '1d' })
    expect(malformed.response.status).toBe(400)
    expect(JSON.stringify(malformed.body)).toContain(
      'every says how a recurring brief repeats: add \\"recurring\\": true',
    )
    expect(await app.db.selectFrom('runs').select('id').execute()).toEqual([])
    // Changing a series' cadence is refused in the same shape.
    const seriesId = await startSeries(app, user.auth, { every: '1d' })
    const patched = await app.fetch(`/api/series/${seriesId}`, {
      method: 'PATCH',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ cron: '*/5 * * * *' }),
    })
    expect(patched.status).toBe(400)
    expect(await patched.json()).toMatchObject({
      type: 'https://sextant.dev/problems/validation',
      errors: [{ path: 'cron', message: expect.stringMatching(/fires more often than every 1h/) }],
    })
  } finally {
    await app.stop()
  }
})

test('twenty simultaneous "run now" never run a series twice at once: each run starts after the one before ended', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const seriesId = await startSeries(app, user.auth, { every: '1h', notify: 'always' })
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth }),
      ),
    )
    const statuses = answers.map((answer) => answer.status)
    // A request served after an earlier one's run ended may start the next (this machine's speed
    // decides how many); one served while a run is going is told so.
    expect(statuses.filter((status) => status === 202).length).toBeGreaterThanOrEqual(1)
    expect(
      statuses.every((status) => status === 202 || status === 409),
      JSON.stringify(statuses),
    ).toBe(true)
    for (const answer of answers.filter((each) => each.status === 202)) {
      await waitForRun(app.fetch, user.auth, ((await answer.json()) as { runId: string }).runId)
    }
    const runs = await seriesRuns(app, seriesId)
    expect(runs).toHaveLength(1 + statuses.filter((status) => status === 202).length)
    // When each run's work began: its first step finished by the worker, whose transaction can only
    // start after the run's job was taken, after the transaction that made the run committed. Not
    // created_at or started_at: a "run now" that waited on the series' lock while the run before was
    // ending stamps those with the start of its own transaction, before that run had ended.
    const worked = await app.db
      .selectFrom('run_events')
      .select(['run_id', (eb) => eb.fn.min('created_at').as('first')])
      .where(
        'run_id',
        'in',
        runs.map((run) => run.id),
      )
      .where('type', '=', 'step_finished')
      .groupBy('run_id')
      .execute()
    const firstWork = new Map(worked.map((row) => [row.run_id, new Date(row.first as Date).getTime()]))
    const ordered = [...runs].sort((a, b) => (firstWork.get(a.id) ?? 0) - (firstWork.get(b.id) ?? 0))
    for (let index = 1; index < ordered.length; index++) {
      const previous = ordered[index - 1]
      expect(firstWork.get(ordered[index]?.id as string)).toBeGreaterThanOrEqual(previous?.finished_at?.getTime() ?? 0)
    }
  } finally {
    await app.stop()
  }
})

test('a "run now" finds the series busy at once while another transaction holds it, rather than queueing', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const seriesId = await startSeries(app, user.auth, { every: '1h' })
    const { lockUnlessBusy } = createSeriesBriefs(app.ring)
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let locked: () => void = () => {}
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve
    })
    // One transaction holds the series' lock until told to let go.
    const holder = app.db.transaction().execute(async (trx) => {
      expect(typeof (await lockUnlessBusy(trx, seriesId, user.account.id))).toBe('object')
      locked()
      await held
    })
    await isLocked
    // Another is told 'busy' without waiting for it; another account's is no series at all.
    const other = await createTestAccount(app.db)
    await app.db.transaction().execute(async (trx) => {
      expect(await lockUnlessBusy(trx, seriesId, user.account.id)).toBe('busy')
      expect(await lockUnlessBusy(trx, seriesId, other.account.id)).toBeUndefined()
    })
    // Over HTTP, "run now" answers 409 while the lock is held.
    const answer = await app.fetch(`/api/series/${seriesId}/run`, { method: 'POST', headers: user.auth })
    expect(answer.status).toBe(409)
    release()
    await holder
  } finally {
    await app.stop()
  }
})
