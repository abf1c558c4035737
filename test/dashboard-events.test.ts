// The dashboard's run list stream: the whole list on connect, then again whenever one of the
// account's runs or series changes, and nothing of anyone else's.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DashboardRun } from '#server/runs/service.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream, type SseStream } from '#test/support/sse-client.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RECURRING_INTERVAL: '1h' } })
})
afterAll(() => app.stop())

function lists(stream: SseStream): DashboardRun[][] {
  return stream.messages.filter((message) => message.event === 'runs').map((message) => JSON.parse(message.data))
}

function latest(stream: SseStream): DashboardRun[] | undefined {
  return lists(stream).at(-1)
}

async function openDashboardStream() {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const stream = await openEventStream(new URL('/dashboard/events', app.url), { Cookie: cookie })
  return { user, stream }
}

test('the stream needs a dashboard session', async () => {
  const response = await app.fetch('/dashboard/events', { headers: { Cookie: 'sx_session=forged' } })
  expect(response.status).toBe(401)
  expect(response.headers.get('content-type')).toContain('application/problem+json')
})

test('a run started through the API appears and completes on the stream; others do not', async () => {
  const { user, stream } = await openDashboardStream()
  try {
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream')
    await stream.waitFor(() => lists(stream).length === 1)
    expect(latest(stream)).toEqual([])

    const stranger = await createTestAccount(app.db)
    const theirs = await postBrief(app.fetch, stranger.auth, { topic: 'somebody else entirely', depth: 'quick' })
    const ours = await postBrief(app.fetch, user.auth, { topic: 'streamed to the dashboard', depth: 'quick' })
    expect(ours.response.status).toBe(202)

    await stream.waitFor(() => latest(stream)?.[0]?.runId === ours.body.runId)
    await waitForRun(app.fetch, user.auth, ours.body.runId)
    await stream.waitFor(() => latest(stream)?.[0]?.status === 'complete')
    await waitForRun(app.fetch, stranger.auth, theirs.body.runId)

    const seen = lists(stream).flat()
    expect(seen.map((run) => run.runId)).not.toContain(theirs.body.runId)
    // A run's many events are coalesced: far fewer lists than events.
    const events = await app.db
      .selectFrom('run_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('run_id', '=', ours.body.runId)
      .executeTakeFirstOrThrow()
    expect(lists(stream).length).toBeLessThanOrEqual(Number(events.n) + 1)
  } finally {
    stream.abort()
  }
})

test('a sleeping series shows its next run, and pausing it from the API updates the list', async () => {
  const { user, stream } = await openDashboardStream()
  try {
    const started = await postBrief(app.fetch, user.auth, {
      topic: 'weekly on the dashboard',
      depth: 'quick',
      recurring: true,
    })
    await waitForRun(app.fetch, user.auth, started.body.runId)
    await stream.waitFor(() => latest(stream)?.[0]?.series?.state === 'sleeping')
    expect(latest(stream)?.[0]?.series?.nextRunAt).toEqual(expect.any(String))

    const run = await (await app.fetch(`/api/briefs/${started.body.runId}`, { headers: user.auth })).json()
    const paused = await app.fetch(`/api/series/${run.recurring.seriesId}`, {
      method: 'PATCH',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'paused' }),
    })
    expect(paused.status).toBe(200)
    await stream.waitFor(() => latest(stream)?.[0]?.series?.state === 'paused')
  } finally {
    stream.abort()
  }
})
