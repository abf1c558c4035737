// Slack end to end: signed Events API requests to the real app, the run, and every reply in the
// thread, with Slack's Web API played by a stub that speaks chat.postMessage and rate limits on demand.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signSlackRequest } from '#server/chat/slack/verify.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { dumpAllTables } from '#test/support/database.ts'
import { integrationCounts, waitForRunEnd } from '#test/support/integrations.ts'
import { waitUntil } from '#test/support/sse-client.ts'
import { type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubSlack, startStubSlack } from '#test/support/stub-slack.ts'

const SIGNING_SECRET = 'slack-signing-secret-for-tests'
const BOT_TOKEN = `xoxb-1111-2222-${randomBytes(12).toString('hex')}`
const TEAM = 'T0SEXTANT'
const PUBLIC_URL = 'https://sextant.example'

let slack: StubSlack
let exa: StubExa
let app: TestApp
let accountId: string
let owner: { email: string; password: string }

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()
// Enough pages, with long titles, that the report outgrows one Slack message.
const documents = Array.from({ length: 16 }, (_, i) => ({
  url: `https://news.example/sodium-ion-batteries/${i}-${'long-path-segment-'.repeat(3)}`,
  title: `Sodium-ion batteries report ${i}: grid storage, pack prices, cycle life and what utilities plan next`,
  publishedDate: day(1 + (i % 5)),
  text: `Sodium-ion batteries finding ${i}: a utility reported ${100 + i} MWh of sodium-ion grid storage with pack prices near ${60 + i} dollars per kWh and ${4000 + i * 100} cycles at 80 percent capacity.`,
}))

beforeAll(async () => {
  slack = await startStubSlack({ tokens: [BOT_TOKEN] })
  exa = await startStubExa({ documents })
  app = await startTestApp({
    env: {
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PUBLIC_URL,
      EXA_API_KEY: 'exa-test-key',
      EXA_BASE_URL: exa.url,
      RECURRING_INTERVAL: '2s',
      SCHEDULE_MIN_INTERVAL: '1s',
      PROVIDER_TIMEOUT_SECONDS: '2',
      RUN_DEADLINE_QUICK_SECONDS: '20',
      // These tests mention the app more often than an hour's allowance (test/security/mention-limits.test.ts).
      RATE_LIMIT_MENTIONS_PER_HOUR: '1000',
      RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR: '1000',
    },
  })
  const user = await createTestAccount(app.db)
  accountId = user.account.id
  owner = user
  await createSlackWorkspaces(() => app.ring).link(app.db, { teamId: TEAM, accountId, botToken: BOT_TOKEN })
})
afterAll(async () => {
  await app.stop()
  await slack.close()
  await exa.close()
})

let clock = 1_763_000_000
function mention(text: string, options: { eventId?: string; threadTs?: string; event?: object } = {}) {
  clock += 1
  const ts = `${clock}.000200`
  return {
    ts,
    eventId: options.eventId ?? `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    body: (eventId: string) => ({
      token: 'legacy-verification-token',
      team_id: TEAM,
      api_app_id: 'A0SEXTANT',
      type: 'event_callback',
      event_id: eventId,
      event_time: clock,
      event: {
        type: 'app_mention',
        user: 'U0ADA',
        text: `<@U0SEXTANTBOT> ${text}`,
        ts,
        channel: 'C0RESEARCH',
        event_ts: ts,
        ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
        ...options.event,
      },
    }),
  }
}

async function postSlack(
  payload: object,
  options: { timestamp?: number; secret?: string; signature?: string | null; headers?: Record<string, string> } = {},
) {
  const raw = JSON.stringify(payload)
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(timestamp),
    ...options.headers,
  }
  if (options.signature !== null) {
    headers['x-slack-signature'] =
      options.signature ?? signSlackRequest(options.secret ?? SIGNING_SECRET, timestamp, raw)
  }
  return app.fetch('/api/webhooks/slack', { method: 'POST', headers, body: raw })
}

/** Mentions the app and returns the run it started, from the link in the "researching" reply. */
async function mentionAndGetRun(text: string, options: Parameters<typeof mention>[1] = {}) {
  const event = mention(text, options)
  const response = await postSlack(event.body(event.eventId))
  expect(await response.json()).toEqual({ status: 'accepted' })
  const [researching] = await slack.waitForThread(options.threadTs ?? event.ts, 1)
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\|/.exec(researching?.text ?? '')?.[1]
  if (!runId) throw new Error(`no run link in ${researching?.text}`)
  return { event, runId, researching }
}

/** Until no delivery is pending: a test that scripts the stub must not hit another test's messages. */
async function deliveriesSettled() {
  for (let i = 0; i < 400; i++) {
    const pending = await app.db.selectFrom('deliveries').select('id').where('status', '=', 'pending').execute()
    if (pending.length === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('deliveries still pending')
}

test('Slack checks the endpoint with url_verification; the signed challenge is echoed', async () => {
  const response = await postSlack({ token: 'x', challenge: 'c3po-r2d2', type: 'url_verification' })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ challenge: 'c3po-r2d2' })
})

test('a mention is acknowledged at once, researched, and the report arrives in the thread in parts', async () => {
  const event = mention('sodium-ion batteries depth:quick timeframe:30d')
  const started = performance.now()
  const response = await postSlack(event.body(event.eventId))
  expect(performance.now() - started).toBeLessThan(1000) // Slack gives three seconds
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'accepted' })

  const [researching] = await slack.waitForThread(event.ts, 1)
  expect(researching).toMatchObject({ channel: 'C0RESEARCH', threadTs: event.ts })
  expect(researching?.text).toMatch(/^:mag: Researching \*sodium-ion batteries\* \(quick, the last 30 days/)
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\|follow it live>/.exec(researching?.text ?? '')?.[1] as string
  expect(researching?.text).toContain(`<${PUBLIC_URL}/dashboard/runs/${runId}|`)

  const run = await waitForRunEnd(app.db, runId)
  expect(run).toMatchObject({ status: 'complete', source: 'slack', account_id: accountId })
  const thread = await slack.waitForThread(event.ts, 3)
  await new Promise((resolve) => setTimeout(resolve, 500)) // any stray extra message would arrive by now
  const parts = slack.messages.filter((message) => message.threadTs === event.ts).slice(1)
  expect(parts.length).toBeGreaterThanOrEqual(2)
  for (const part of parts) {
    expect(part.channel).toBe('C0RESEARCH')
    expect(part.text.length).toBeLessThanOrEqual(3000)
  }
  expect(thread[0]).toBe(researching) // "researching" first, then the report in order
  expect(parts[0]?.text).toMatch(/^\*Research report: sodium-ion batteries\*/)
  expect(parts.at(-1)?.text).toContain(`<${PUBLIC_URL}/dashboard/runs/${runId}|Full report on Sextant>`)
  const whole = parts.map((part) => part.text).join('\n')
  expect(whole.indexOf('*Sources*')).toBeGreaterThan(whole.indexOf('Research report'))
  expect(whole).toMatch(/\[<https:\/\/news\.example\/sodium-ion-batteries\/[^|]+\|\d+>/) // citations link their sources
  expect(whole).not.toMatch(/^#+ /m) // mrkdwn, not markdown headings
  expect(slack.calls.every((call) => call.token === BOT_TOKEN)).toBe(true)

  const deliveries = await app.db.selectFrom('deliveries').selectAll().where('run_id', '=', runId).execute()
  expect(deliveries.map((row) => [row.kind, row.status, row.parts_sent]).sort()).toEqual([
    ['result', 'sent', parts.length],
    ['started', 'sent', 1],
  ])
})

test('a mention with options produces the matching brief', async () => {
  const { event, runId } = await mentionAndGetRun(
    'sodium-ion batteries depth:quick style:bullet framework:pestle timeframe:7d',
  )
  const run = await app.db
    .selectFrom('runs')
    .select(['id', 'brief_key_id', 'brief', 'source'])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow()
  expect({ source: run.source, brief: createRunSeals(app.ring).brief(run) }).toEqual({
    source: 'slack',
    brief: {
      topic: 'sodium-ion batteries',
      depth: 'quick',
      reportStyle: 'bullet',
      frameworkId: 'pestle',
      timeframe: '7d',
      recurring: false,
      source: 'slack',
    },
  })
  await waitForRunEnd(app.db, runId)
  await slack.waitForThread(event.ts, 2)
})

test('a Slack retry of the same event starts no second run', async () => {
  const event = mention('sodium-ion batteries depth:quick')
  expect(await (await postSlack(event.body(event.eventId))).json()).toEqual({ status: 'accepted' })
  const retry = await postSlack(event.body(event.eventId), {
    headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
  })
  expect(retry.status).toBe(200)
  expect(await retry.json()).toEqual({ status: 'duplicate' })
  const [researching] = await slack.waitForThread(event.ts, 1)
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\|/.exec(researching?.text ?? '')?.[1] as string
  await waitForRunEnd(app.db, runId)
  await slack.waitForThread(event.ts, 2)
  const runs = await app.db
    .selectFrom('deliveries')
    .select('run_id')
    .where('kind', '=', 'started')
    .where((eb) => eb(eb.fn('jsonb_extract_path_text', ['target', eb.val('threadTs')]), '=', event.ts))
    .execute()
  expect(runs).toHaveLength(1)
  expect(
    slack.messages.filter((message) => message.threadTs === event.ts && message.text.startsWith(':mag:')),
  ).toHaveLength(1)
})

test('forged, stale, future and missing signatures answer 401 and store nothing', async () => {
  const before = await integrationCounts(app.db)
  const event = mention('sodium-ion batteries depth:quick')
  const payload = event.body(event.eventId)
  const now = Math.floor(Date.now() / 1000)
  const attempts = [
    await postSlack(payload, { secret: 'not the secret' }),
    await postSlack(payload, { timestamp: now - 6 * 60 }),
    await postSlack(payload, { timestamp: now + 6 * 60 }),
    await postSlack(payload, { signature: null }),
    await postSlack(payload, { signature: signSlackRequest(SIGNING_SECRET, now, '{"type":"event_callback"}') }),
  ]
  for (const response of attempts) {
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect((await response.json()).detail).toMatch(/^The request is not signed: /)
  }
  expect(await integrationCounts(app.db)).toEqual(before)
})

test('messages from bots and other events are acknowledged and ignored', async () => {
  const before = await integrationCounts(app.db)
  const fromBot = mention('sodium-ion batteries', { event: { bot_id: 'B0OTHER' } })
  expect(await (await postSlack(fromBot.body(fromBot.eventId))).json()).toEqual({
    status: 'ignored',
    reason: 'bot message',
  })
  const botMessage = mention('sodium-ion batteries', { event: { subtype: 'bot_message' } })
  expect((await (await postSlack(botMessage.body(botMessage.eventId))).json()).status).toBe('ignored')
  const reaction = mention('x', { event: { type: 'reaction_added' } })
  expect(await (await postSlack(reaction.body(reaction.eventId))).json()).toEqual({
    status: 'ignored',
    reason: 'event reaction_added',
  })
  expect(await integrationCounts(app.db)).toEqual(before)
})

test('a 429 from Slack is retried after its Retry-After, and the reply still arrives once', async () => {
  await deliveriesSettled()
  slack.rateLimitNext(1, 1)
  const { event, researching, runId } = await mentionAndGetRun('sodium-ion batteries depth:quick')
  const limited = slack.calls.filter((call) => call.status === 429).at(-1)
  expect(limited).toBeDefined()
  expect((researching?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(950)
  // Slack has the message; the worker records it as sent once Slack's answer is back.
  const started = () =>
    app.db
      .selectFrom('deliveries')
      .select(['status', 'attempts', 'last_error'])
      .where('run_id', '=', runId)
      .where('kind', '=', 'started')
      .executeTakeFirstOrThrow()
  await waitUntil(async () => (await started()).status !== 'pending')
  expect(await started()).toEqual({ status: 'sent', attempts: 1, last_error: 'Slack rate limited the message' })
  await waitForRunEnd(app.db, runId)
  await slack.waitForThread(event.ts, 2)
  expect(
    slack.messages.filter((message) => message.threadTs === event.ts && message.text.startsWith(':mag:')),
  ).toHaveLength(1)
})

test('a failed run is reported in the thread', async () => {
  exa.setBehaviour('server-error')
  try {
    const { event, runId } = await mentionAndGetRun('sodium-ion batteries depth:quick')
    expect((await waitForRunEnd(app.db, runId)).status).toBe('failed')
    const [, failure] = await slack.waitForThread(event.ts, 2)
    expect(failure?.text).toMatch(/^:warning: Research on \*sodium-ion batteries\* failed: .*exa/i)
    expect(failure?.text).toContain(`/dashboard/runs/${runId}|details>`)
  } finally {
    exa.setBehaviour('answer')
  }
})

test('a Slack run cancelled on the dashboard says so in its thread', async () => {
  exa.setBehaviour('hang') // the run waits in its search while the user cancels it
  try {
    const { event, runId } = await mentionAndGetRun('sodium-ion batteries depth:quick')
    const cookie = await logIn(app.url, owner.email, owner.password)
    const cancelled = await postForm(app.url, `/dashboard/runs/${runId}`, { intent: 'cancel' }, cookie)
    expect(cancelled.status).toBe(200)
    expect((await waitForRunEnd(app.db, runId)).status).toBe('cancelled')
    const [, notice] = await slack.waitForThread(event.ts, 2)
    expect(notice?.text).toContain('was cancelled')
    expect(notice?.text).toContain(`/dashboard/runs/${runId}|details>`)
  } finally {
    exa.setBehaviour('answer')
  }
})

test('a mention that is not a valid brief gets a reply saying what to fix, and starts nothing', async () => {
  const before = await integrationCounts(app.db)
  const event = mention('sodium-ion batteries framework:astrology depth:fast')
  expect(await (await postSlack(event.body(event.eventId))).json()).toEqual({ status: 'accepted' })
  const [reply] = await slack.waitForThread(event.ts, 1)
  expect(reply?.text).toContain('depth: ')
  expect(reply?.text).toContain('(got "fast")')
  expect(reply?.text).toContain('framework: unknown framework')
  expect(reply?.text).toContain('Usage: &lt;topic&gt; [depth:quick|deep]')
  expect((await integrationCounts(app.db)).runs).toBe(before.runs)
})

test('a mention inside a thread is answered in that thread', async () => {
  const parent = '1763000000.999999'
  const { researching, runId } = await mentionAndGetRun('heat pumps depth:quick', { threadTs: parent })
  expect(researching?.threadTs).toBe(parent)
  await waitForRunEnd(app.db, runId)
  await slack.waitForThread(parent, 2)
})

test('a recurring series started in Slack posts every new run to the same thread', async () => {
  const { event, runId } = await mentionAndGetRun('sodium-ion batteries depth:quick notify:always recurring')
  const first = await waitForRunEnd(app.db, runId)
  expect(first.series_id).not.toBeNull()
  await slack.waitForThread(event.ts, 2)
  // Two seconds later the series runs again by itself (source "schedule"), and posts here.
  let next: { id: string } | undefined
  for (let i = 0; i < 300 && !next; i++) {
    next = await app.db
      .selectFrom('runs')
      .select('id')
      .where('series_id', '=', first.series_id)
      .where('series_slot', '=', 1)
      .executeTakeFirst()
    if (!next) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (!next) throw new Error('the series did not run again')
  expect(await waitForRunEnd(app.db, next.id)).toMatchObject({ status: 'complete', source: 'schedule' })
  const thread = await slack.waitForThread(event.ts, 3)
  const reports = thread.filter((message) => message.text.includes('Full report on Sextant'))
  expect(reports.map((message) => /\/dashboard\/runs\/([0-9a-f-]{36})\|Full report/.exec(message.text)?.[1])).toEqual(
    expect.arrayContaining([runId, next.id]),
  )
  expect(thread.every((message) => message.channel === 'C0RESEARCH')).toBe(true)
  await app.db.updateTable('series').set({ status: 'cancelled' }).where('id', '=', first.series_id).execute()
})

test('with notify:changes (the default), a scheduled run that found nothing new is recorded, not posted', async () => {
  const { event, runId } = await mentionAndGetRun('grid storage pack prices depth:quick every:2s')
  const first = await waitForRunEnd(app.db, runId)
  // From here the web has nothing new: the next run's delta is empty.
  exa.setBehaviour('empty')
  await deliveriesSettled()
  const posted = slack.messages.filter((message) => message.threadTs === event.ts)
  expect(posted.some((message) => message.text.includes('Full report on Sextant'))).toBe(true)
  let next: { id: string } | undefined
  for (let i = 0; i < 300 && !next; i++) {
    next = await app.db
      .selectFrom('runs')
      .select('id')
      .where('series_id', '=', first.series_id)
      .where('series_slot', '=', 1)
      .where('status', '<>', 'running')
      .executeTakeFirst()
    if (!next) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  exa.setBehaviour('answer')
  if (!next) throw new Error('the series did not run again')
  await app.db.updateTable('series').set({ status: 'cancelled' }).where('id', '=', first.series_id).execute()
  const ended = await app.db
    .selectFrom('run_events')
    .select('id')
    .where('run_id', '=', next.id)
    .where('type', '=', 'complete')
    .executeTakeFirstOrThrow()
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), next.id, ended.id - 1)
  expect(events[0]).toMatchObject({ type: 'complete', data: { newFindings: 0, delivered: false } })
  await deliveriesSettled()
  expect(await app.db.selectFrom('deliveries').select('id').where('run_id', '=', next.id).execute()).toEqual([])
  expect(slack.messages.filter((message) => message.threadTs === event.ts)).toHaveLength(posted.length)
})

test('the bot token is stored sealed, never in the clear', async () => {
  const everything = await dumpAllTables(app.db)
  expect(everything).toContain(TEAM) // the dump covers slack_workspaces
  expect(everything).not.toContain(BOT_TOKEN)
  expect(everything).not.toContain(BOT_TOKEN.slice('xoxb-'.length))
})

test('the GitHub webhook answers 503 with a problem when GITHUB_WEBHOOK_SECRET is not set', async () => {
  const response = await app.fetch('/api/webhooks/github', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'ping' },
    body: '{}',
  })
  expect(response.status).toBe(503)
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect((await response.json()).detail).toContain('GITHUB_WEBHOOK_SECRET')
})
