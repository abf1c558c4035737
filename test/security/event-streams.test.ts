// Event streams are bounded: at most MAX_EVENT_STREAMS_PER_SESSION per dashboard session and per API
// key (over it, a 429 problem; open streams go on); they end when their session logs out or their
// key is revoked, here or from another process; and the streams of one account share each read of
// its run list instead of reading it once each.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest'
import { createTrialAccount } from '#server/accounts/trial.ts'
import { notifyAccountChanged } from '#server/repositories/notifications.ts'
import { createRun } from '#server/runs/record.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { runCli } from '#test/support/process.ts'
import { postBrief } from '#test/support/runs.ts'
import { openEventStream, type SseStream, waitUntil } from '#test/support/sse-client.ts'

const CAP = 3

let app: TestApp
beforeAll(async () => {
  // Web only: runs stay running (nobody works them), so their event streams stay open.
  app = await startTestApp({
    env: { RUN_ROLE: 'web', MAX_EVENT_STREAMS_PER_SESSION: String(CAP), RATE_LIMIT_RUNS_PER_HOUR: '1000' },
  })
})
afterAll(() => app.stop())

async function open(path: string, headers: Record<string, string>): Promise<SseStream> {
  const stream = await openEventStream(new URL(path, app.url), headers)
  onTestFinished(() => stream.abort())
  return stream
}

function runLists(stream: SseStream): Array<Array<{ runId: string }>> {
  return stream.messages.filter((message) => message.event === 'runs').map((message) => JSON.parse(message.data))
}

async function runningRun(auth: Record<string, string>): Promise<string> {
  const started = await postBrief(app.fetch, auth, { topic: `streams ${Math.random()}`, depth: 'quick' })
  expect(started.response.status).toBe(202)
  return started.body.runId
}

async function expectRefused(path: string, headers: Record<string, string>, who: string) {
  const response = await app.fetch(path, { headers: { Accept: 'text/event-stream', ...headers } })
  expect(response.status).toBe(429)
  expect(response.headers.get('content-type')).toContain('application/problem+json')
  const problem = await response.json()
  expect(problem).toMatchObject({ status: 429, title: 'Too Many Requests' })
  expect(problem.detail).toContain(`At most ${CAP} event streams can be open at once for one ${who}`)
}

test('a dashboard session holds at most the cap of event streams; the next is refused and the open ones go on', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const runId = await runningRun(user.auth)
  const lists = [
    await open('/dashboard/events', { Cookie: cookie }),
    await open('/dashboard/events', { Cookie: cookie }),
  ]
  const runStream = await open(`/dashboard/runs/${runId}/events`, { Cookie: cookie })
  expect([...lists, runStream].map((stream) => stream.response.status)).toEqual([200, 200, 200])

  await expectRefused('/dashboard/events', { Cookie: cookie }, 'dashboard session')
  await expectRefused(`/dashboard/runs/${runId}/events`, { Cookie: cookie }, 'dashboard session')

  // The open streams still carry changes.
  const another = await runningRun(user.auth)
  for (const stream of lists) await stream.waitFor(() => runLists(stream).at(-1)?.[0]?.runId === another)
  expect(runStream.closed).toBe(false)

  // Another session of the same account has its own allowance.
  const elsewhere = await logIn(app.url, user.email, user.password)
  expect((await open('/dashboard/events', { Cookie: elsewhere })).response.status).toBe(200)

  // Closing one frees its place.
  lists[0]?.abort()
  await waitUntil(async () => {
    const retry = await open('/dashboard/events', { Cookie: cookie })
    retry.abort()
    return retry.response.status === 200
  })
})

test('a trial visitor holds at most the cap of event streams', async () => {
  const visitor = await createTrialAccount(app.db)
  const id = await createRun(app.db, createRunSeals(app.ring), {
    accountId: visitor.accountId,
    brief: BriefSchema.parse({ topic: 'trial streams', depth: 'quick', source: 'trial' }),
    topicHash: app.memory.topicIndex.hash(visitor.accountId, 'trial streams'),
    hasMemory: false,
    priorRunCount: 0,
    deadlineAt: new Date(Date.now() + 3_600_000),
  })
  const run = { id }
  const cookie = { Cookie: `sx_trial=${visitor.token}` }
  for (let i = 0; i < CAP; i++) expect((await open(`/trial/runs/${run.id}/events`, cookie)).response.status).toBe(200)
  await expectRefused(`/trial/runs/${run.id}/events`, cookie, 'trial visitor')
})

test('an API key holds at most the cap of event streams, run events and MCP SSE sessions together', async () => {
  const user = await createTestAccount(app.db)
  const runId = await runningRun(user.auth)
  const streams = [
    await open(`/api/briefs/${runId}/events`, user.auth),
    await open(`/api/briefs/${runId}/events`, user.auth),
    await open('/api/mcp/sse', user.auth),
  ]
  expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200])
  await streams[2]?.waitFor(() => streams[2]?.messages.some((message) => message.event === 'endpoint') ?? false)

  await expectRefused(`/api/briefs/${runId}/events`, user.auth, 'API key')
  await expectRefused('/api/mcp/sse', user.auth, 'API key')
  expect(streams.map((stream) => stream.closed)).toEqual([false, false, false])

  // Another key of the account has its own allowance.
  const created = await app.fetch('/api/keys', {
    method: 'POST',
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'second' }),
  })
  const second = { Authorization: `Bearer ${(await created.json()).key}` }
  expect((await open(`/api/briefs/${runId}/events`, second)).response.status).toBe(200)
})

test("logging out ends the session's open streams, and only that session's", async () => {
  const user = await createTestAccount(app.db)
  const runId = await runningRun(user.auth)
  const cookie = await logIn(app.url, user.email, user.password)
  const list = await open('/dashboard/events', { Cookie: cookie })
  const run = await open(`/dashboard/runs/${runId}/events`, { Cookie: cookie })
  const otherSession = await open('/dashboard/events', { Cookie: await logIn(app.url, user.email, user.password) })
  await list.waitFor(() => runLists(list).length === 1)

  const out = await postForm(app.url, '/logout', {}, cookie)
  expect(out.status).toBe(302)
  await list.waitFor(() => list.closed && run.closed)
  expect(otherSession.closed).toBe(false)
  expect((await app.fetch('/dashboard/events', { headers: { Cookie: cookie } })).status).toBe(401)
})

test('revoking a key ends its open streams, through the API here and through the CLI in another process', async () => {
  const user = await createTestAccount(app.db)
  const runId = await runningRun(user.auth)
  const created = await app.fetch('/api/keys', {
    method: 'POST',
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'second' }),
  })
  const second = await created.json()
  const secondAuth = { Authorization: `Bearer ${second.key}` }
  const events = await open(`/api/briefs/${runId}/events`, user.auth)
  const mcp = await open('/api/mcp/sse', user.auth)
  const secondEvents = await open(`/api/briefs/${runId}/events`, secondAuth)
  expect([events, mcp, secondEvents].map((stream) => stream.response.status)).toEqual([200, 200, 200])

  const revoked = await app.fetch(`/api/keys/${user.prefix}`, { method: 'DELETE', headers: secondAuth })
  expect(revoked.status).toBe(200)
  await events.waitFor(() => events.closed && mcp.closed)
  expect(secondEvents.closed).toBe(false)

  const cli = await runCli(['keys', 'revoke', second.prefix], { DATABASE_URL: app.databaseUrl })
  expect(cli.code).toBe(0)
  await secondEvents.waitFor(() => secondEvents.closed)
  // This process had the key's verification cached; the announcement dropped it, so no reconnect.
  expect((await app.fetch(`/api/briefs/${runId}/events`, { headers: secondAuth })).status).toBe(401)
})

test('the streams of one account share one read of its run list per change', async () => {
  const user = await createTestAccount(app.db)
  const streams: SseStream[] = []
  for (let session = 0; session < 4; session++) {
    const cookie = await logIn(app.url, user.email, user.password)
    for (let tab = 0; tab < 2; tab++) streams.push(await open('/dashboard/events', { Cookie: cookie }))
  }
  for (const stream of streams) await stream.waitFor(() => runLists(stream).length === 1)

  // Every query the app sends goes through pg.Client#query: count the reads of this account's series.
  let reads = 0
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // A statement comes as (text, values), or as a named Query that carries both (db/database.ts).
    const [text, given] = args as [unknown, unknown]
    const statement = text as { text?: string; values?: unknown } | null
    const sqlText = typeof text === 'string' ? text : statement?.text
    const values = typeof text === 'string' ? given : statement?.values
    if (sqlText?.includes('from "series"') && Array.isArray(values) && values.includes(user.account.id)) reads++
    return (query as (...args: unknown[]) => unknown).apply(this, args)
  } as typeof query
  onTestFinished(() => {
    pg.Client.prototype.query = query
  })

  await notifyAccountChanged(app.db, user.account.id)
  for (const stream of streams) await stream.waitFor(() => runLists(stream).length === 2)
  expect(reads).toBe(1)
})

test('streams whose end was announced while the hub was not listening are closed once it is back', async () => {
  const user = await createTestAccount(app.db)
  const runId = await runningRun(user.auth)
  const cookie = await logIn(app.url, user.email, user.password)
  const events = await open(`/api/briefs/${runId}/events`, user.auth)
  const list = await open('/dashboard/events', { Cookie: cookie })
  await list.waitFor(() => runLists(list).length === 1)

  // The key revoked and the session ended with no announcement: as if it was sent while the listen
  // connection was down. Then that connection drops, and the hub reconnects.
  await app.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('prefix', '=', user.prefix).execute()
  await app.db.deleteFrom('sessions').where('account_id', '=', user.account.id).execute()
  expect([events.closed, list.closed]).toEqual([false, false])
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
    where application_name = 'sextant-events' and datname = current_database()`.execute(app.db)
  await events.waitFor(() => events.closed && list.closed)
})
