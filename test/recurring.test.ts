// Recurring briefs with a 2-second interval instead of 7 days, on the real job system.
import { expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { createDatabase } from '#test/support/database.ts'
import { postBrief, type RunBody, waitForRun } from '#test/support/runs.ts'

const env = { RECURRING_INTERVAL: '2s', RATE_LIMIT_RUNS_PER_HOUR: '1000' }
type Auth = Record<string, string>

async function seriesRuns(app: TestApp, seriesId: string) {
  return app.db
    .selectFrom('runs')
    .select(['id', 'series_slot', 'status', 'source'])
    .where('series_id', '=', seriesId)
    .orderBy('series_slot')
    .execute()
}

async function waitForSeriesRuns(app: TestApp, seriesId: string, count: number, timeoutMs = 20_000) {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const runs = await seriesRuns(app, seriesId)
    if (runs.length >= count && runs.every((run) => run.status !== 'running')) return runs
    if (performance.now() > deadline) throw new Error(`series ${seriesId} has ${runs.length} runs, wanted ${count}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function getRun(app: TestApp, auth: Auth, runId: string) {
  return (await (await app.fetch(`/api/briefs/${runId}`, { headers: auth })).json()) as RunBody & {
    recurring?: { seriesId: string; state: string; nextRunAt: string | null }
    brief: { topic: string; source: string; depth: string }
  }
}

test('a recurring run completes, sleeps one interval, and runs again by itself with the same brief', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const { body } = await postBrief(app.fetch, user.auth, {
      topic: 'heat pumps in cold climates',
      depth: 'quick',
      timeframe: 'all',
      recurring: true,
      maxTokens: 1_000_000,
      maxCostDollars: 5,
    })
    const first = await waitForRun(app.fetch, user.auth, body.runId)
    expect(first.status).toBe('complete')
    // Completion and the next slot commit together: the first read that saw "complete" has its time.
    const view = first as typeof first & { recurring?: { seriesId: string; state: string; nextRunAt: string | null } }
    expect(view.recurring).toMatchObject({
      seriesId: expect.any(String),
      state: 'sleeping',
      nextRunAt: expect.any(String),
    })
    const sleepsFor = Date.parse(view.recurring?.nextRunAt as string) - Date.parse(view.finishedAt as unknown as string)
    expect(sleepsFor).toBeGreaterThan(1000)
    expect(sleepsFor).toBeLessThan(4000)
    const listed = await (await app.fetch('/api/series', { headers: user.auth })).json()
    expect(listed.series).toEqual([expect.objectContaining({ seriesId: view.recurring?.seriesId, state: 'sleeping' })])

    const runs = await waitForSeriesRuns(app, view.recurring?.seriesId as string, 2)
    expect(runs.map((run) => [run.series_slot, run.source])).toEqual([
      [0, 'api'],
      [1, 'schedule'],
    ])
    const second = await getRun(app, user.auth, runs[1]?.id as string)
    expect(second.status).toBe('complete')
    // The budget too: every scheduled run spends no more than the first was allowed.
    expect(second.brief).toMatchObject({
      topic: 'heat pumps in cold climates',
      depth: 'quick',
      source: 'schedule',
      maxTokens: 1_000_000,
      maxCostDollars: 5,
    })
    expect(second.report?.delta.baseline).toBe(false) // a delta against the first run
  } finally {
    await app.stop()
  }
})

test('pause stops the next start, resume brings it back, and stopping ends the series for good', async () => {
  const app = await startTestApp({ env })
  try {
    const user = await createTestAccount(app.db)
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'paused topic', depth: 'quick', recurring: true })
    await waitForRun(app.fetch, user.auth, body.runId)
    const { recurring } = await getRun(app, user.auth, body.runId)
    const seriesId = recurring?.seriesId as string
    const patch = (status: string) =>
      app.fetch(`/api/series/${seriesId}`, {
        method: 'PATCH',
        headers: { ...user.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ status }),
      })

    const paused = await patch('paused')
    expect(await paused.json()).toMatchObject({ state: 'paused', nextRunAt: null })
    const read = await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })
    expect(await read.json()).toMatchObject({ state: 'paused', nextRunAt: null })
    await new Promise((resolve) => setTimeout(resolve, 3500)) // past the interval
    expect(await seriesRuns(app, seriesId)).toHaveLength(1)

    expect(await (await patch('active')).json()).toMatchObject({ state: 'sleeping' })
    await waitForSeriesRuns(app, seriesId, 2)

    const stop = await app.fetch(`/api/series/${seriesId}`, { method: 'DELETE', headers: user.auth })
    expect(await stop.json()).toMatchObject({ state: 'cancelled', nextRunAt: null })
    await new Promise((resolve) => setTimeout(resolve, 3500))
    expect(await seriesRuns(app, seriesId)).toHaveLength(2)
    expect((await patch('active')).status).toBe(409)

    const other = await createTestAccount(app.db)
    expect((await app.fetch(`/api/series/${seriesId}`, { headers: other.auth })).status).toBe(404)
    expect(
      (await app.fetch('/api/series', { headers: other.auth }).then((response) => response.json())).series,
    ).toEqual([])
  } finally {
    await app.stop()
  }
})

test('a restart while the series sleeps loses nothing, and two workers never run a slot twice', async () => {
  const database = await createDatabase('sextant_template')
  let app = await startTestApp({ env: { ...env, RECURRING_INTERVAL: '4s' }, databaseUrl: database.url })
  try {
    const user = await createTestAccount(app.db)
    const { body } = await postBrief(app.fetch, user.auth, { topic: 'restart topic', depth: 'quick', recurring: true })
    await waitForRun(app.fetch, user.auth, body.runId)
    const seriesId = (await getRun(app, user.auth, body.runId)).recurring?.seriesId as string
    await app.stop() // nothing is running while the series sleeps

    app = await startTestApp({ env, databaseUrl: database.url })
    const twin = await startTestApp({ env, databaseUrl: database.url })
    try {
      // A duplicate wake for the same slot, as a retry or a second scheduler might send.
      await twin.jobs.boss.send('series.wake', { seriesId, slot: 1 })
      const runs = await waitForSeriesRuns(app, seriesId, 2)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      const slotOne = (await seriesRuns(app, seriesId)).filter((run) => run.series_slot === 1)
      expect(slotOne).toHaveLength(1)
      expect(runs[1]?.status).toBe('complete')
    } finally {
      await twin.stop()
    }
  } finally {
    await app.stop()
    await database.drop()
  }
})
