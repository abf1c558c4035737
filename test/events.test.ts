import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import express from 'express'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest'
import { createPool, type Db } from '#db/database.ts'
import type { Database } from '#db/schema.ts'
import { generateKeySpec, parseKeyRing } from '#server/crypto/key-ring.ts'
import { createEventHub, type EventHub } from '#server/events/hub.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { parseEventNotification } from '#server/repositories/notifications.ts'
import {
  appendRunEvents,
  type NewEvent,
  notifiedEvent,
  type RunEvent,
  readRunEvents,
  runEventLog,
} from '#server/runs/event-log.ts'
import { type EventDataColumn, eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { capturingLogger, testLogger } from '#test/support/logger.ts'
import { type PgProxy, startPgProxy } from '#test/support/pg-proxy.ts'
import { openEventStream, type SseMessage, waitUntil } from '#test/support/sse-client.ts'

/** One event, appended as the engine appends a batch. */
async function appendRunEvent(db: Db, events: EventDataColumn, event: NewEvent & { runId: string }): Promise<RunEvent> {
  const [appended] = await appendRunEvents(db, events, event.runId, [event])
  if (!appended) throw new Error(`appending a ${event.type} event to run ${event.runId} returned no row`)
  return appended
}

let database: TestDatabase
/** The events' data's codec, as the hub and the event log use it. */
const column = eventDataColumn(parseKeyRing(generateKeySpec('events')))
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

async function createRun(): Promise<string> {
  const { account } = await createTestAccount(database.db)
  const run = await database.db
    .insertInto('runs')
    .values({
      account_id: account.id,
      topic_hash: Buffer.alloc(32),
      source: 'api',
      has_memory: false,
      prior_run_count: 0,
      deadline_at: new Date(Date.now() + 3_600_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return run.id
}

function append(runId: string, type: RunEvent['type'], step: string | null = null) {
  return appendRunEvent(database.db, column, { runId, type, step, data: { note: `${type} of ${runId}` } })
}

async function startHub(options: { reconnectDelayMs?: number } = {}): Promise<EventHub> {
  const hub = await createEventHub({
    connectionString: database.url,
    events: runEventLog(database.db, column),
    log: testLogger(),
    ...options,
  })
  onTestFinished(() => hub.close())
  return hub
}

function collect(hub: EventHub, runId: string) {
  const events: RunEvent[] = []
  hub.subscribe(runId, (event) => events.push(event))
  return events
}

const ids = (events: RunEvent[]) => events.map((event) => event.id)

/** An Express server with the route the API mounts, minus the access check. */
async function startSseServer(hub: EventHub, options: { db?: Db; keepAliveMs?: number } = {}) {
  const app = express()
  const streams = { open: 0, finished: 0 }
  app.get('/runs/:runId/events', async (req, res) => {
    streams.open++
    await streamRunEvents({
      hub,
      events: runEventLog(options.db ?? database.db, column),
      req,
      res,
      runId: req.params.runId,
      keepAliveMs: options.keepAliveMs,
    })
    streams.finished++
  })
  const server = app.listen(0)
  await once(server, 'listening')
  onTestFinished(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const { port } = server.address() as AddressInfo
  return { streams, url: (runId: string, query = '') => `http://127.0.0.1:${port}/runs/${runId}/events${query}` }
}

function message(event: RunEvent): SseMessage {
  return { id: String(event.id), event: event.type, data: JSON.stringify(event) }
}

test('appended events read back in id order, after a given id, and only for their run', async () => {
  const runId = await createRun()
  const otherRunId = await createRun()
  const started = await appendRunEvent(database.db, column, { runId, type: 'run_started', data: { depth: 'standard' } })
  await append(otherRunId, 'run_started')
  const planning = await append(runId, 'step_started', 'plan')
  const complete = await append(runId, 'complete')

  expect(started).toEqual({
    id: expect.any(Number),
    runId,
    type: 'run_started',
    step: null,
    data: { depth: 'standard' },
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
  })
  expect(planning.id).toBeGreaterThan(started.id)
  expect(await readRunEvents(database.db, column, runId, 0)).toEqual([started, planning, complete])
  expect(await readRunEvents(database.db, column, runId, started.id)).toEqual([planning, complete])
  expect(await readRunEvents(database.db, column, runId, 0, 2)).toEqual([started, planning])
  expect(await readRunEvents(database.db, column, runId, complete.id)).toEqual([])
})

test('an append notifies run_events with the event itself (sealed), and account_changes only when a run list changes', async () => {
  const runId = await createRun()
  const { account_id: accountId } = await database.db
    .selectFrom('runs')
    .select('account_id')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow()
  const listener = new pg.Client({ connectionString: database.url })
  await listener.connect()
  onTestFinished(() => listener.end())
  const payloads: Array<{ channel: string; payload: string }> = []
  listener.on('notification', ({ channel, payload }) => payloads.push({ channel, payload: payload ?? '' }))
  await listener.query('LISTEN run_events; LISTEN account_changes')

  const started = await append(runId, 'step_started', 'plan')
  const warning = await append(runId, 'warning', 'plan')
  await waitUntil(() => payloads.length === 3)
  // A warning changes nothing a run list shows: no account_changes for it.
  expect(payloads.filter(({ channel }) => channel === 'account_changes')).toEqual([
    { channel: 'account_changes', payload: `${accountId}:${runId}` },
  ])
  const notified = payloads.filter(({ channel }) => channel === 'run_events').map(({ payload }) => payload)
  // Readers of the old format split off "<runId>:<eventId>" and read the table: still so.
  expect(notified.map((payload) => payload.split(':').slice(0, 2).join(':'))).toEqual([
    `${runId}:${started.id}`,
    `${runId}:${warning.id}`,
  ])
  const [first, second] = notified.map((payload) => parseEventNotification(payload))
  // The data travels sealed, and opens to the event as appended.
  expect(notified[1]).not.toContain('warning of')
  expect([first, second].map((notification) => notification && notifiedEvent(column, notification))).toEqual([
    started,
    warning,
  ])
})

test('data too large for a notification is announced without it, and the hub reads the row', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const events = collect(hub, runId)
  const first = await append(runId, 'run_started')
  await waitUntil(() => events.length === 1)
  const large = await appendRunEvent(database.db, column, {
    runId,
    type: 'warning',
    data: { message: randomBytes(6000).toString('base64') },
  })
  await waitUntil(() => events.length === 2)
  expect(events).toEqual([first, large])
})

/** A hub whose reads of `runId`'s events are counted in `reads`. */
async function countingHub(runId: string) {
  const reads: string[] = []
  const pool = createPool(database.url, 2, testLogger())
  const counted = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (entry) => {
      const { sql: text, parameters } = entry.query
      if (entry.level === 'query' && text.includes('"run_events"') && parameters.includes(runId)) reads.push(text)
    },
  })
  const hub = await createEventHub({
    connectionString: database.url,
    events: runEventLog(counted, column),
    log: testLogger(),
  })
  onTestFinished(async () => {
    await hub.close()
    await counted.destroy()
  })
  return { hub, reads }
}

test('a subscriber in sync gets events from the notifications, without reading the table', async () => {
  const runId = await createRun()
  const { hub, reads } = await countingHub(runId)
  // Notifications arrive in commit order: once the barrier's has, the first event's has been heard
  // (by nobody), so the subscription below starts behind the log.
  const barrierRun = await createRun()
  const barrier = collect(hub, barrierRun)
  const before = await append(runId, 'run_started')
  await append(barrierRun, 'run_started')
  await waitUntil(() => barrier.length === 1)
  // Subscribed from the start of the log: the first notification finds it out of sync, and it reads once.
  const events = collect(hub, runId)
  const appended = [before]
  appended.push(await append(runId, 'step_started', 'plan'))
  await waitUntil(() => events.length === 2)
  expect(reads).toHaveLength(1)
  for (const type of ['step_finished', 'step_started', 'query_done', 'query_done', 'complete'] as const) {
    appended.push(await append(runId, type, 'search'))
  }
  await waitUntil(() => events.length === appended.length)
  expect(events).toEqual(appended)
  expect(reads).toHaveLength(1)
})

test("once a stream's replay has caught up, its live events come from their notifications: the hub reads none", async () => {
  const runId = await createRun()
  const { hub, reads } = await countingHub(runId)
  const server = await startSseServer(hub)
  const appended = [await append(runId, 'run_started'), await append(runId, 'step_started', 'plan')]
  const stream = await openEventStream(server.url(runId))
  await stream.waitFor(() => stream.messages.length === 2)
  for (const type of ['step_finished', 'step_started', 'query_done', 'complete'] as const) {
    appended.push(await append(runId, type, 'search'))
  }
  await stream.waitFor(() => stream.closed)
  expect(stream.messages).toEqual(appended.map(message))
  // The replay read the log (through the server's own db); the hub had nothing to read.
  expect(reads).toEqual([])
})

test('two hubs on one database both receive a burst appended elsewhere, in id order and once each', async () => {
  const runId = await createRun()
  const otherRunId = await createRun()
  const [first, second] = await Promise.all([startHub(), startHub()])
  const onFirst = collect(first, runId)
  const onSecond = collect(second, runId)
  const onOtherRun = collect(first, otherRunId)

  // Appended concurrently, so notifications arrive while the hubs are still reading earlier ones.
  const appended = await Promise.all(
    Array.from({ length: 20 }, (_, query) =>
      appendRunEvent(database.db, column, { runId, type: 'query_done', data: { query } }),
    ),
  )
  const sorted = appended.toSorted((a, b) => a.id - b.id)
  await waitUntil(() => onFirst.length >= 20 && onSecond.length >= 20)
  await sleep(200) // room for a duplicate to show up
  expect(onFirst).toEqual(sorted)
  expect(onSecond).toEqual(sorted)
  expect(onOtherRun).toEqual([])
  expect(first.subscriberCount()).toBe(2)
})

test('a hub whose listen connection is terminated reconnects and delivers what was appended meanwhile', async () => {
  const runId = await createRun()
  const hub = await startHub({ reconnectDelayMs: 500 })
  const events = collect(hub, runId)
  // Account subscribers cannot be replayed to; they hear "something may have changed" (null).
  const accountChanges: (string | null)[] = []
  const { account_id: accountId } = await database.db
    .selectFrom('runs')
    .select('account_id')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow()
  hub.subscribeAccount(accountId, (changed) => accountChanges.push(changed))
  const before = await append(runId, 'run_started')
  await waitUntil(() => events.length === 1)

  async function listeners() {
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`.execute(database.db)
    return rows.map((row) => row.pid)
  }
  const [pid] = await listeners()
  expect(pid).toBeDefined()
  await sql`select pg_terminate_backend(${pid}, 5000)`.execute(database.db)
  const during = await append(runId, 'step_started', 'plan')
  // Nobody listened when it committed, so its notification went nowhere: only a re-read finds it.
  expect(await listeners()).toEqual([])

  await waitUntil(() => events.length === 2)
  expect(accountChanges).toEqual([runId, null])
  const [restored] = await listeners()
  expect(restored).toBeDefined()
  expect(restored).not.toBe(pid)
  const after = await append(runId, 'complete')
  await waitUntil(() => events.length === 3)
  expect(ids(events)).toEqual([before.id, during.id, after.id])
})

/** A database handle whose first query returns its rows only once `end` is resolved. */
function heldFirstResult(db: Db) {
  const begun = Promise.withResolvers<void>()
  const end = Promise.withResolvers<void>()
  let first = true
  const held = db.withPlugin({
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (first) {
        first = false
        begun.resolve()
        await end.promise
      }
      return args.result
    },
  })
  return { db: held, begun: begun.promise, end: () => end.resolve() }
}

/** Drops the hub's listen connection (new ones wait) and returns once the hub knows. */
async function dropListenConnection(proxy: PgProxy, lines: Array<Record<string, unknown>>) {
  proxy.close()
  proxy.cut()
  await waitUntil(() => lines.some((line) => line.msg === 'run events listen connection lost; reconnecting'))
}

/**
 * Lets the hub reconnect, with Postgres's answer to its LISTEN held until the notification of an
 * event appended then is behind it: the hub handles that notification before its reconnect's read
 * has begun. Returns that event.
 */
async function reconnectBehindNotification(proxy: PgProxy, runId: string): Promise<RunEvent> {
  proxy.holdAfterListen()
  proxy.open()
  await waitUntil(async () => {
    const { rows } = await sql<{ idle: boolean }>`select state = 'idle' as idle from pg_stat_activity
      where datname = current_database() and query like 'LISTEN%'`.execute(database.db)
    return rows.length === 1 && rows[0]?.idle === true
  })
  const next = await append(runId, 'step_finished', 'plan')
  await waitUntil(() => proxy.held().includes(`${runId}:${next.id}:`))
  proxy.release()
  return next
}

test('a read of the hub that ends while nobody listens leaves its subscribers to the read after reconnecting', async () => {
  const runId = await createRun()
  const proxy = await startPgProxy(database.url)
  const { log, lines } = capturingLogger()
  const held = heldFirstResult(database.db)
  const hub = await createEventHub({
    connectionString: proxy.url,
    events: runEventLog(held.db, column),
    log,
    reconnectDelayMs: 10,
  })
  onTestFinished(() => hub.close())
  const events = collect(hub, runId)

  // The first event starts a read (nobody is in sync yet), which ends after the connection drops.
  const first = await append(runId, 'run_started')
  await held.begun
  await dropListenConnection(proxy, lines)
  held.end()
  await waitUntil(() => events.length === 1)
  // Nobody listens when it commits: only a read can bring it.
  const unheard = await append(runId, 'step_started', 'plan')
  const next = await reconnectBehindNotification(proxy, runId)

  await waitUntil(() => events.some((event) => event.id === next.id))
  expect(events).toEqual([first, unheard, next])
})

test('a stream whose replay ends while nobody listens is left to the read after reconnecting', async () => {
  const runId = await createRun()
  const proxy = await startPgProxy(database.url)
  const { log, lines } = capturingLogger()
  const hub = await createEventHub({
    connectionString: proxy.url,
    events: runEventLog(database.db, column),
    log,
    reconnectDelayMs: 10,
  })
  onTestFinished(() => hub.close())
  const first = await append(runId, 'run_started')
  // The stream's replay (its first query) has read the log, and returns once the connection has dropped.
  const held = heldFirstResult(database.db)
  const server = await startSseServer(hub, { db: held.db })
  const stream = await openEventStream(server.url(runId))
  await held.begun
  await dropListenConnection(proxy, lines)
  const unheard = await append(runId, 'step_started', 'plan')
  held.end()
  await stream.waitFor(() => stream.messages.length === 1)
  const next = await reconnectBehindNotification(proxy, runId)

  await stream.waitFor(() => stream.messages.some((sent) => sent.id === String(next.id)))
  expect(stream.messages).toEqual([first, unheard, next].map(message))
  stream.abort()
})

test('an SSE client gets the replay, then live events, and the stream closes after complete', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const server = await startSseServer(hub)
  const started = await append(runId, 'run_started')
  const planning = await append(runId, 'step_started', 'plan')

  const stream = await openEventStream(server.url(runId))
  expect(stream.response.status).toBe(200)
  expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
  expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform')
  expect(stream.response.headers.get('x-accel-buffering')).toBe('no')
  await stream.waitFor(() => stream.messages.length === 2)
  expect(stream.retry).toBe(2000)
  expect(stream.closed).toBe(false)

  const planned = await append(runId, 'step_finished', 'plan')
  const complete = await append(runId, 'complete')
  await stream.waitFor(() => stream.closed)
  expect(stream.error).toBeUndefined()
  expect(stream.messages).toEqual([started, planning, planned, complete].map(message))
  await waitUntil(() => server.streams.finished === 1)
  expect(hub.subscriberCount()).toBe(0)
})

test('Last-Event-ID (header or query) replays exactly the later events; past the final event, 204', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const server = await startSseServer(hub)
  const events = [
    await append(runId, 'run_started'),
    await append(runId, 'step_started', 'plan'),
    await append(runId, 'step_finished', 'plan'),
    await append(runId, 'complete'),
  ]

  async function replay(headers: Record<string, string>, query = '') {
    const stream = await openEventStream(server.url(runId, query), headers)
    await stream.waitFor(() => stream.closed)
    return stream
  }
  expect((await replay({})).messages).toEqual(events.map(message))
  expect((await replay({ 'Last-Event-ID': String(events[1]?.id) })).messages).toEqual(events.slice(2).map(message))
  expect((await replay({}, `?lastEventId=${events[2]?.id}`)).messages).toEqual(events.slice(3).map(message))
  expect((await replay({ 'Last-Event-ID': 'not-a-number' })).messages).toEqual(events.map(message))
  const finished = await replay({ 'Last-Event-ID': String(events[3]?.id) })
  expect(finished.response.status).toBe(204)
  expect(finished.messages).toEqual([])
})

test('a client that reconnects mid-run with Last-Event-ID gets every event once', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const server = await startSseServer(hub)
  await append(runId, 'run_started')
  await append(runId, 'step_started', 'plan')

  const first = await openEventStream(server.url(runId))
  await first.waitFor(() => first.messages.length === 2)
  first.abort()
  await waitUntil(() => hub.subscriberCount() === 0)
  await append(runId, 'step_finished', 'plan')
  await append(runId, 'step_started', 'search')

  const second = await openEventStream(server.url(runId), { 'Last-Event-ID': first.messages[1]?.id ?? '' })
  await second.waitFor(() => second.messages.length === 2)
  await append(runId, 'complete')
  await second.waitFor(() => second.closed)
  const received = [...first.messages, ...second.messages]
  expect(received).toEqual((await readRunEvents(database.db, column, runId, 0)).map(message))
})

test('streams opened at any moment of busy runs, across lost listen connections, each get every event once, in order', async () => {
  const hub = await startHub({ reconnectDelayMs: 50 })
  const server = await startSseServer(hub)
  const runIds = await Promise.all([createRun(), createRun(), createRun()])
  const opened: Array<{ runId: string; afterId: number; stream: Awaited<ReturnType<typeof openEventStream>> }> = []
  const openings: Promise<void>[] = []
  const open = (runId: string, afterId: number) => {
    const headers: Record<string, string> = afterId > 0 ? { 'Last-Event-ID': String(afterId) } : {}
    openings.push(
      openEventStream(server.url(runId), headers).then((stream) => void opened.push({ runId, afterId, stream })),
    )
  }
  const write = async (runId: string) => {
    const ids: number[] = []
    for (let round = 0; round < 25; round++) {
      // Two writers at once, as a cancel races a step: one run's ids still commit in order.
      const pair = await Promise.all([append(runId, 'query_done', 'search'), append(runId, 'warning', 'search')])
      ids.push(...pair.map((event) => event.id))
      if (Math.random() < 0.3) open(runId, Math.random() < 0.5 ? 0 : (ids[Math.floor(Math.random() * ids.length)] ?? 0))
      await sleep(Math.random() * 8)
    }
  }
  const terminateListener = async () => {
    for (let cut = 0; cut < 2; cut++) {
      await sleep(40 + Math.random() * 120)
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query like 'LISTEN%'`.execute(database.db)
    }
  }
  for (const runId of runIds) open(runId, 0)
  await Promise.all([...runIds.map(write), terminateListener()])
  await Promise.all(openings)
  for (const runId of runIds) await append(runId, 'complete')
  await waitUntil(() => opened.every(({ stream }) => stream.closed))
  for (const { runId, afterId, stream } of opened) {
    const expected = (await readRunEvents(database.db, column, runId, afterId, 1000)).map(message)
    expect(stream.error).toBeUndefined()
    expect(stream.messages).toEqual(expected)
  }
})

test('an event appended while the replay is being read still reaches the stream', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const started = await append(runId, 'run_started')
  const watcher = collect(hub, runId)
  let racing: RunEvent | undefined
  // The stream's replay query returns, and only then, before the stream sees the rows, the next
  // event commits and the hub handles its notification.
  const racyDb = database.db.withPlugin({
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (!racing) {
        const appended = await append(runId, 'step_started', 'plan')
        racing = appended
        await waitUntil(() => watcher.some((event) => event.id === appended.id))
      }
      return args.result
    },
  })
  const server = await startSseServer(hub, { db: racyDb })

  const stream = await openEventStream(server.url(runId))
  await stream.waitFor(() => stream.messages.length === 2)
  expect(stream.messages).toEqual([started, racing as RunEvent].map(message))
  stream.abort()
})

// A stream's replay and the hub do not both read: what is notified while the replay runs waits for
// its end, and the hub reads then only for an event the replay did not reach.
async function streamWithHeldQuery(headers: (first: RunEvent) => Record<string, string>) {
  const runId = await createRun()
  const { hub, reads } = await countingHub(runId)
  const barrierRun = await createRun()
  const barrier = collect(hub, barrierRun)
  const first = await append(runId, 'run_started')
  // The stream's first query has run and returns when released.
  const held = heldFirstResult(database.db)
  const server = await startSseServer(hub, { db: held.db })
  const opening = openEventStream(server.url(runId), headers(first))
  await held.begun
  /** Appends to the run and returns once the hub has heard it (notifications come in commit order). */
  const appendHeard = async (type: RunEvent['type'], step: string | null = null) => {
    const event = await append(runId, type, step)
    await append(barrierRun, 'step_started', 'plan')
    await waitUntil(() => barrier.length === 1)
    barrier.length = 0
    return event
  }
  return { runId, reads, first, held, opening, appendHeard }
}

test("an event notified while a stream's replay runs, and not in what it read, is read once at the replay's end", async () => {
  // The replay's query is held after reading the log: the first event only.
  const { reads, first, held, opening, appendHeard } = await streamWithHeldQuery(() => ({}))
  const missed = await appendHeard('step_started', 'plan')
  expect(reads).toEqual([])
  held.end()
  const stream = await opening
  await stream.waitFor(() => stream.messages.length === 2)
  expect(stream.messages).toEqual([first, missed].map(message))
  expect(reads).toHaveLength(1)
  stream.abort()
})

test("an event notified while a stream's replay runs, and in what it read, sends nobody to the table", async () => {
  // Resuming after the first event, the stream first asks for the final event's id (held); its
  // replay reads after that, so it reads the event appended meanwhile.
  const { runId, reads, held, opening, appendHeard } = await streamWithHeldQuery((first) => ({
    'Last-Event-ID': String(first.id),
  }))
  const reached = await appendHeard('step_started', 'plan')
  held.end()
  const stream = await opening
  await stream.waitFor(() => stream.messages.length === 1)
  const live = await append(runId, 'step_finished', 'plan')
  await stream.waitFor(() => stream.messages.length === 2)
  expect(stream.messages).toEqual([reached, live].map(message))
  expect(reads).toEqual([])
  stream.abort()
})

test('keep-alive comments arrive while the run is quiet', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const server = await startSseServer(hub, { keepAliveMs: 50 })

  const stream = await openEventStream(server.url(runId))
  await stream.waitFor(() => stream.comments.length >= 3)
  expect(new Set(stream.comments)).toEqual(new Set(['keep-alive']))
  expect(stream.messages).toEqual([])
  stream.abort()
})

test('when the client goes away the stream ends and its subscription is dropped', async () => {
  const runId = await createRun()
  const hub = await startHub()
  const server = await startSseServer(hub)
  await append(runId, 'run_started')

  const stream = await openEventStream(server.url(runId))
  await stream.waitFor(() => stream.messages.length === 1)
  expect(hub.subscriberCount()).toBe(1)
  stream.abort()
  await waitUntil(() => hub.subscriberCount() === 0)
  await waitUntil(() => server.streams.finished === 1)
  expect(server.streams.open).toBe(1)
})
