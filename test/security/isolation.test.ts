// Another account's run, topic and series are unreachable through every surface: the REST API and
// its event streams, MCP over both transports, the dashboard's pages, actions and streams, topic
// pages and export, the trial page and its stream, and the webhooks. Each attempt answers "not
// found" (or nothing of it), no response carries any of the owner's content, and the owner's data
// is exactly as it was afterwards.
import { randomBytes } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signSlackRequest } from '#server/chat/slack/verify.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { loadTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { openEventStream, waitUntil } from '#test/support/sse-client.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'

// The marker makes the owner's topic, and what its runs read, recognisable anywhere.
const MARKER = `zq${randomBytes(4).toString('hex')}`
const TOPIC = `Sodium-ion batteries ${MARKER}`

type Account = Awaited<ReturnType<typeof createTestAccount>> & { cookie: string }
let exa: StubExa
let app: TestApp
let owner: Account
let intruder: Account
const owned = { runId: '', seriesRunId: '', seriesId: '', topicId: '', fact: '', trialRunId: '', trialCookie: '' }

beforeAll(async () => {
  // The owner's topic and the intruder's read different pages, so no fact is in both memories.
  exa = await startStubExa({
    documents: [
      {
        url: `https://${MARKER}.example/sodium`,
        title: `Sodium-ion batteries ${MARKER} report`,
        publishedDate: new Date().toISOString(),
        text: `Sodium-ion batteries ${MARKER}: a utility switched on a grid battery and cut its costs by a fifth.`,
      },
      {
        url: 'https://tides.example/barrage',
        title: 'Tidal power barrage',
        publishedDate: new Date().toISOString(),
        text: 'Tidal power: a barrage in Wales doubled its output after new turbines were fitted.',
      },
    ],
  })
  app = await startTestApp({
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: exa.url,
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
      SLACK_SIGNING_SECRET: 'slack-secret',
      RECURRING_INTERVAL: '7d',
    },
  })
  const signIn = async (): Promise<Account> => {
    const user = await createTestAccount(app.db)
    return { ...user, cookie: await logIn(app.url, user.email, user.password) }
  }
  owner = await signIn()
  intruder = await signIn()
  const run = await postBrief(app.fetch, owner.auth, { topic: TOPIC, depth: 'quick' })
  expect((await waitForRun(app.fetch, owner.auth, run.body.runId)).status).toBe('complete')
  const series = await postBrief(app.fetch, owner.auth, { topic: TOPIC, depth: 'quick', recurring: true })
  await waitForRun(app.fetch, owner.auth, series.body.runId)
  const view = await (await app.fetch(`/api/briefs/${series.body.runId}`, { headers: owner.auth })).json()
  const memory = await loadTopicMemory(app.memory, owner.account.id, TOPIC)
  if (!memory?.facts[0]) throw new Error('the owner has no memory to protect')
  Object.assign(owned, {
    runId: run.body.runId,
    seriesRunId: series.body.runId,
    seriesId: view.recurring.seriesId,
    topicId: memory.topicId,
    fact: memory.facts[0].text,
  })
  // The intruder has a topic of its own, so compare and search have something to mix in.
  const own = await postBrief(app.fetch, intruder.auth, { topic: 'Tidal power', depth: 'quick' })
  await waitForRun(app.fetch, intruder.auth, own.body.runId)

  const trial = await fetch(new URL('/trial', app.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(app.url).origin },
    body: new URLSearchParams({ topic: TOPIC }),
  })
  owned.trialRunId = new URL(trial.headers.get('location') ?? '', app.url).searchParams.get('run') ?? ''
  owned.trialCookie = /(sx_trial=[^;]+)/.exec(trial.headers.get('set-cookie') ?? '')?.[1] ?? ''
  expect(owned.trialRunId).toMatch(/^[0-9a-f-]{36}$/)
  await runsSettled()
}, 90_000)
afterAll(async () => {
  await app.stop()
  await exa.close()
})

/** Until no run is running: the state checks below compare a database at rest. */
async function runsSettled() {
  await waitUntil(async () => {
    const running = await app.db.selectFrom('runs').select('id').where('status', '=', 'running').execute()
    return running.length === 0
  }, 30_000)
}

/** The owner's rows; ignoring what the intruder's own requests legitimately write. */
function ownerState() {
  return snapshotState(app.db, { ignoreTables: ['sessions', 'idempotency_keys'] })
}

/**
 * Nothing of the owner's in `text`: its topic, a fact, its ids. What the request itself sent (an id
 * in the URL, a search word) may be echoed back in a "not found" and is taken out first.
 */
function expectNothingOf(response: string, what: string, sent: string[] = []) {
  const text = sent.reduce((rest, echoed) => rest.replaceAll(echoed, ''), response)
  expect(text, `${what} shows the owner's topic`).not.toContain(MARKER)
  expect(text, `${what} shows the owner's fact`).not.toContain(owned.fact.slice(0, 40))
  for (const id of [owned.runId, owned.seriesRunId, owned.seriesId, owned.topicId, owned.trialRunId]) {
    expect(text, `${what} shows the owner's id ${id}`).not.toContain(id)
  }
}

test('REST and its event streams: every run, series, memory and key of the owner is not found', async () => {
  const before = await ownerState()
  const json = { ...intruder.auth, 'Content-Type': 'application/json' }
  const attempts: Array<[string, RequestInit, number]> = [
    [`/api/briefs/${owned.runId}`, { headers: intruder.auth }, 404],
    [`/api/briefs/${owned.runId}`, { method: 'DELETE', headers: intruder.auth }, 404],
    [`/api/briefs/${owned.seriesRunId}/events`, { headers: intruder.auth }, 404],
    [`/api/briefs/${owned.trialRunId}`, { headers: intruder.auth }, 404],
    [`/api/series/${owned.seriesId}`, { headers: intruder.auth }, 404],
    [`/api/series/${owned.seriesId}`, { method: 'PATCH', headers: json, body: '{"status":"paused"}' }, 404],
    [`/api/series/${owned.seriesId}`, { method: 'DELETE', headers: intruder.auth }, 404],
    [`/api/keys/${owner.prefix}`, { method: 'DELETE', headers: intruder.auth }, 404],
  ]
  for (const [path, init, status] of attempts) {
    const response = await app.fetch(path, init)
    const text = await response.text()
    expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(status)
    expectNothingOf(text, path, [path.split('/')[3] as string])
  }
  for (const path of [
    `/api/memory/check?topic=${encodeURIComponent(TOPIC)}`,
    `/api/briefs?topic=${encodeURIComponent(TOPIC)}`,
    `/api/briefs?cursor=${owned.runId}`,
    '/api/series',
    '/api/keys',
  ]) {
    const response = await app.fetch(path, { headers: intruder.auth })
    expect(response.status, path).toBe(200)
    expectNothingOf(await response.text(), path)
  }
  expect(
    await (await app.fetch(`/api/memory/check?topic=${encodeURIComponent(TOPIC)}`, { headers: intruder.auth })).json(),
  ).toBeNull()
  // The owner's key still works; nothing of the owner's changed.
  expect((await app.fetch('/api/me', { headers: owner.auth })).status).toBe(200)
  expectSameState(await ownerState(), before, "the intruder's REST requests")
})

test('MCP, both transports: tools find no run or memory of the owner, and an SSE session cannot be borrowed', async () => {
  const before = await ownerState()
  for (const transport of ['http', 'sse'] as const) {
    const client = new Client({ name: 'intruder', version: '1.0.0' })
    const url = new URL(transport === 'http' ? '/api/mcp' : '/api/mcp/sse', app.url)
    const options = { requestInit: { headers: intruder.auth } }
    await client.connect(
      transport === 'http' ? new StreamableHTTPClientTransport(url, options) : new SSEClientTransport(url, options),
    )
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['get_run_status', { runId: owned.runId }],
        ['get_run_report', { runId: owned.runId }],
        ['get_run_status', { runId: owned.trialRunId }],
        ['get_topic_memory', { topic: TOPIC }],
        ['get_topic_delta', { topic: TOPIC }],
        ['export_topic', { topic: TOPIC }],
        ['compare_topics', { topicA: TOPIC, topicB: 'Tidal power' }],
      ]
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args })
        expect(result.isError, `${transport} ${name}`).toBe(true)
        expect(JSON.stringify(result.content)).toMatch(/no run|no memory|No memory/)
        expectNothingOf(JSON.stringify(result), `${transport} ${name}`, Object.values(args) as string[])
      }
      const search = await client.callTool({ name: 'search_memory', arguments: { query: `${MARKER} utility` } })
      expectNothingOf(JSON.stringify(search), `${transport} search_memory`, [MARKER])
    } finally {
      await client.close()
    }
  }

  // The same search as the owner finds the fact: the intruder's empty answers are not for lack of data.
  const ownerClient = new Client({ name: 'owner', version: '1.0.0' })
  await ownerClient.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: owner.auth } }),
  )
  const found = await ownerClient.callTool({ name: 'search_memory', arguments: { query: `${MARKER} utility` } })
  expect(JSON.stringify(found)).toContain(owned.fact.slice(0, 40))
  await ownerClient.close()

  // The owner opens a legacy SSE session; the intruder posting to it by its id is refused.
  const stream = await openEventStream(new URL('/api/mcp/sse', app.url), owner.auth)
  await stream.waitFor(() => stream.messages.some((message) => message.event === 'endpoint'))
  const endpoint = stream.messages.find((message) => message.event === 'endpoint')?.data as string
  const hijack = await app.fetch(endpoint, {
    method: 'POST',
    headers: { ...intruder.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_frameworks', arguments: {} },
    }),
  })
  expect(hijack.status).toBe(404)
  stream.abort()
  expectSameState(await ownerState(), before, "the intruder's MCP calls")
})

test("dashboard pages, actions and streams: the owner's run, topic and series are not found", async () => {
  const before = await ownerState()
  const page = (path: string) => app.fetch(path, { headers: { Cookie: intruder.cookie }, redirect: 'manual' })
  for (const path of [
    `/dashboard/runs/${owned.runId}`,
    `/dashboard/runs/${owned.trialRunId}`,
    `/dashboard/topics/${owned.topicId}`,
    `/dashboard/topics/${owned.topicId}/export`,
  ]) {
    const response = await page(path)
    expect(response.status, path).toBe(404)
    expectNothingOf(await response.text(), path, [path.split('/')[3] as string])
  }
  // The owner, asking the same, sees it: the pages below would show it if they leaked.
  const ownView = await app.fetch(`/dashboard/topics/${owned.topicId}`, { headers: { Cookie: owner.cookie } })
  expect(await ownView.text()).toContain(MARKER)
  const compare = await page(`/dashboard/topics/compare?a=${owned.topicId}&b=${owned.topicId}`)
  expect(compare.status).toBeGreaterThanOrEqual(400)
  expect(await compare.text()).not.toContain(MARKER)
  for (const path of ['/dashboard', '/dashboard/series', '/dashboard/topics', `/dashboard/topics?q=${MARKER}`]) {
    const response = await page(path)
    expect(response.status, path).toBe(200)
    expectNothingOf(await response.text(), path, [MARKER])
  }
  for (const path of [`/dashboard/runs/${owned.seriesRunId}/events`, `/trial/runs/${owned.trialRunId}/events`]) {
    const response = await page(path)
    expect(response.status, path).toBe(404)
    expectNothingOf(await response.text(), path, [path.split('/')[3] as string])
  }
  // Actions aimed at the owner's run and series.
  const cancel = await postForm(app.url, `/dashboard/runs/${owned.seriesRunId}`, { intent: 'cancel' }, intruder.cookie)
  expect(cancel.status).toBe(404)
  for (const intent of ['pause', 'stop']) {
    const action = await postForm(app.url, '/dashboard/series', { intent, seriesId: owned.seriesId }, intruder.cookie)
    expect(action.status, intent).toBe(404)
  }
  const revoke = await postForm(app.url, '/dashboard/keys', { intent: 'revoke', prefix: owner.prefix }, intruder.cookie)
  expect(revoke.status).toBe(404)
  // The live run list: the intruder's stream carries nothing of the owner's, even as the owner works.
  const list = await openEventStream(new URL('/dashboard/events', app.url), { Cookie: intruder.cookie })
  await list.waitFor(() => list.messages.length > 0)
  expectSameState(await ownerState(), before, "the intruder's page requests")
  const more = await postBrief(app.fetch, owner.auth, { topic: TOPIC, depth: 'quick' })
  await waitForRun(app.fetch, owner.auth, more.body.runId)
  await new Promise((resolve) => setTimeout(resolve, 500))
  list.abort()
  expectNothingOf(list.messages.map((message) => message.data).join('\n'), 'the dashboard stream')
  expect(list.messages.map((message) => message.data).join('\n')).not.toContain(more.body.runId)
})

test("trial pages: another visitor's trial run is not found, and a dashboard session does not open it", async () => {
  const stranger = await fetch(new URL('/trial', app.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(app.url).origin },
    body: new URLSearchParams({ topic: 'Tidal power' }),
  })
  const strangerCookie = /(sx_trial=[^;]+)/.exec(stranger.headers.get('set-cookie') ?? '')?.[1] ?? ''
  expect(strangerCookie).not.toBe('')
  await runsSettled()
  const before = await ownerState()
  for (const cookie of [strangerCookie, intruder.cookie, owner.cookie, '']) {
    for (const path of [
      `/trial?run=${owned.trialRunId}`,
      `/trial/runs/${owned.trialRunId}/events`,
      `/trial?run=${owned.runId}`,
    ]) {
      const response = await fetch(new URL(path, app.url), { headers: cookie ? { Cookie: cookie } : {} })
      expect(response.status, `${path} as ${cookie.slice(0, 8) || 'nobody'}`).toBe(404)
      const html = await response.text()
      // The owner's own dashboard session does not make the trial page show runs by id either.
      if (cookie !== owner.cookie) expectNothingOf(html, path, [owned.trialRunId, owned.runId])
    }
  }
  // The visitor who started it does see it.
  const own = await fetch(new URL(`/trial?run=${owned.trialRunId}`, app.url), {
    headers: { Cookie: owned.trialCookie },
  })
  expect(own.status).toBe(200)
  expect(await own.text()).toContain(MARKER)
  expectSameState(await ownerState(), before, "others' trial requests")
})

test("webhooks act only for the account a workspace is linked to, never on the owner's runs", async () => {
  await createSlackWorkspaces(() => app.ring).link(app.db, {
    teamId: 'T0INTRUDER',
    accountId: intruder.account.id,
    botToken: 'xoxb-intruder',
  })
  const ownerRuns = async () =>
    app.db
      .selectFrom('runs')
      .select(['id', 'status'])
      .where('account_id', '=', owner.account.id)
      .orderBy('id')
      .execute()
  const before = await ownerRuns()
  const mention = (team: string, eventId: string) =>
    JSON.stringify({
      type: 'event_callback',
      team_id: team,
      event_id: eventId,
      // The owner's run id and topic in the text change nothing: a mention is only ever a new brief.
      event: {
        type: 'app_mention',
        text: `<@U0BOT> ${TOPIC} ${owned.runId} depth:quick`,
        ts: '1763000001.000100',
        channel: 'C0',
      },
    })
  for (const [team, eventId] of [
    ['T0INTRUDER', 'Ev0INTRUDER'],
    ['T0UNLINKED', 'Ev0UNLINKED'],
  ]) {
    const body = mention(team as string, eventId as string)
    const timestamp = Math.floor(Date.now() / 1000)
    const response = await app.fetch('/api/webhooks/slack', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signSlackRequest('slack-secret', timestamp, body),
      },
      body,
    })
    expect(await response.json()).toEqual({ status: 'accepted' })
  }
  await waitUntil(async () => {
    const handled = await app.db
      .selectFrom('webhook_receipts')
      .select('handled_at')
      .where('provider', '=', 'slack')
      .execute()
    return handled.length === 2 && handled.every((row) => row.handled_at !== null)
  })
  const started = await app.db.selectFrom('runs').select('account_id').where('source', '=', 'slack').execute()
  expect(started.map((run) => run.account_id)).toEqual([intruder.account.id])
  expect(await ownerRuns()).toEqual(before)
})
