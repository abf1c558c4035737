// After a realistic session (an account signed up through the page, keys made on the page and
// through the API, research runs that saved memory, a recurring brief, a run that failed, a Slack
// workspace linked and mentioning the app, a mention that got a notice, a trial visitor, and a run
// caught mid-way with page text in its checkpoint), a dump of every row of every table in every
// schema (pg-boss's job data and the run event log included) holds none of the secrets or the
// content the design seals: passwords, API keys, session and trial tokens, the Slack bot token,
// memory's facts and sources, reports, the page text a checkpoint carries, and what people asked:
// topics, objectives, focus areas, the search queries, mention text and a failure's message.
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Db } from '#db/database.ts'
import { signSlackRequest } from '#server/chat/slack/verify.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { loadTopicMemory } from '#server/topics/store.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postForm, sessionCookieFrom } from '#test/support/browser-session.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'
import { type StubSlack, startStubSlack } from '#test/support/stub-slack.ts'

const marker = (label: string) => `${label}${randomBytes(6).toString('hex')}`
const PAGE_TEXT = marker('pagetext')
const PAGE_TITLE = marker('pagetitle')
const PAGE_HOST = marker('host')
const CHECKPOINT_TEXT = marker('checkpointtext')
const PASSWORD = marker('password ')
const BOT_TOKEN = `xoxb-1-2-${randomBytes(12).toString('hex')}`
const SLACK_SECRET = 'slack-secret'
// What people asked, each with a word found nowhere else.
const TOPIC_WORD = marker('topicword')
const OBJECTIVE = marker('objective')
const FOCUS = marker('focus')
const QUERY_WORD = marker('queryword')
const MENTION_WORD = marker('mentionword')
const NOTICE_WORD = marker('noticeword')
const TRIAL_WORD = marker('trialword')
const REFUSAL_WORD = marker('refusalword')

let exa: StubExa
let openai: StubOpenAi
let slack: StubSlack
let app: TestApp

beforeAll(async () => {
  exa = await startStubExa({
    documents: [
      {
        url: `https://${PAGE_HOST}.example/tidal-power`,
        title: `Tidal power ${PAGE_TITLE}`,
        publishedDate: new Date().toISOString(),
        text: `Tidal power: ${PAGE_TEXT} a barrage in Wales doubled its output this year.`,
      },
      {
        url: 'https://other.example/wave-energy',
        title: 'Wave energy trials',
        publishedDate: new Date().toISOString(),
        text: `Wave energy: ${CHECKPOINT_TEXT} buoys off Orkney delivered power through the winter.`,
      },
    ],
  })
  openai = await startStubOpenAi()
  slack = await startStubSlack({ tokens: [BOT_TOKEN] })
  app = await startTestApp({
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: exa.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.baseUrl,
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PROVIDER_TIMEOUT_SECONDS: '30',
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
    },
  })
})
afterAll(async () => {
  await app.stop()
  await exa.close()
  await openai.close()
  await slack.close()
})

/** Every row of every table of every schema but Postgres's own catalogs, as text. */
async function dumpWholeDatabase(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string; name: string }>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(db)
  let everything = ''
  for (const { schema, name } of rows) {
    const dump = await sql<{ row: string }>`select t::text as row from ${sql.table(`${schema}.${name}`)} t`.execute(db)
    everything += `${schema}.${name}\n${dump.rows.map((row) => row.row).join('\n')}\n`
  }
  return everything
}

test('a whole-database dump after a realistic session holds no secret and none of the sealed content', {
  timeout: 90_000,
}, async () => {
  const origin = new URL(app.url).origin
  // Sign up on the page, and make a key there and one through the API.
  const email = `${marker('user')}@example.com`
  await postForm(app.url, '/signup', { email, password: PASSWORD, redirectTo: '/dashboard' })
  const session = sessionCookieFrom(await postForm(app.url, '/login', { email, password: PASSWORD }))
  if (!session) throw new Error('no session cookie')
  const keysPage = await postForm(app.url, '/dashboard/keys', { name: 'laptop' }, session)
  const pageKey = /sx_[a-z0-9]{8}_[A-Za-z0-9]{32}/.exec(await keysPage.text())?.[0]
  if (!pageKey) throw new Error('the keys page showed no new key')
  const auth = { Authorization: `Bearer ${pageKey}` }
  const created = await (
    await app.fetch('/api/keys', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    })
  ).json()
  const apiKey = created.key as string
  const account = await app.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()

  // A recurring brief whose run reads the tidal page, reports and saves memory; the plan's queries
  // carry a marker of their own.
  const topic = `Tidal power ${TOPIC_WORD}`
  openai.onPlan({ content: { queries: [`tidal ${QUERY_WORD}`, 'tidal barrage output'] } })
  const { body } = await postBrief(app.fetch, auth, {
    topic,
    depth: 'quick',
    objective: `output ${OBJECTIVE}`,
    focus: `Wales, ${FOCUS}`,
    recurring: true,
  })
  const done = await waitForRun(app.fetch, auth, body.runId)
  expect(done.status).toBe('complete')
  const memory = await loadTopicMemory(app.memory, account.id, topic)
  const fact = memory?.facts[0]?.text
  expect(fact).toContain(PAGE_TEXT) // the stub model quotes each page's first sentence: memory holds the marker
  expect(JSON.stringify(done.report)).toContain(PAGE_HOST)
  // Read back unsealed: the run, its queries, the run list filtered by topic, and the series.
  const view = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: auth })).json()
  expect(view.brief).toMatchObject({ topic, objective: `output ${OBJECTIVE}`, focus: `Wales, ${FOCUS}` })
  const events = await app.fetch(`/api/briefs/${body.runId}/events`, { headers: auth })
  expect(await events.text()).toContain(QUERY_WORD)
  const listed = await (
    await app.fetch(`/api/briefs?topic=${encodeURIComponent(topic.toUpperCase())}`, { headers: auth })
  ).json()
  expect(listed.runs.map((run: { topic: string }) => run.topic)).toEqual([topic])
  const series = await (await app.fetch('/api/series', { headers: auth })).json()
  expect(series.series[0].brief.objective).toBe(`output ${OBJECTIVE}`)

  // A run that fails: the model's refusal (which may repeat the brief) is its error.
  openai.onSynthesize({ refusal: `I will not research ${REFUSAL_WORD}` })
  const refused = await postBrief(app.fetch, auth, { topic: 'Tidal refusal', depth: 'quick' })
  // The model refuses: the report is written without it, and the warning quotes the refusal.
  const written = await waitForRun(app.fetch, auth, refused.body.runId)
  expect(written.status).toBe('complete')
  const warnings = await readRunEvents(app.db, eventDataColumn(app.ring), refused.body.runId, 0)
  expect(JSON.stringify(warnings.filter((event) => event.type === 'warning'))).toContain(REFUSAL_WORD)

  // Slack linked to the account, and a mention researched in a thread.
  await createSlackWorkspaces(() => app.ring).link(app.db, {
    teamId: 'T0PLAIN',
    accountId: account.id,
    botToken: BOT_TOKEN,
  })
  const mention = JSON.stringify({
    type: 'event_callback',
    team_id: 'T0PLAIN',
    event_id: 'Ev0PLAIN',
    event: {
      type: 'app_mention',
      text: `<@U0BOT> tidal power ${MENTION_WORD} depth:quick`,
      ts: '1763000000.000100',
      channel: 'C0',
    },
  })
  async function postMention(body: string) {
    const timestamp = Math.floor(Date.now() / 1000)
    const accepted = await app.fetch('/api/webhooks/slack', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signSlackRequest(SLACK_SECRET, timestamp, body),
      },
      body,
    })
    expect(await accepted.json()).toEqual({ status: 'accepted' })
  }
  await postMention(mention)
  const thread = await slack.waitForThread('1763000000.000100', 2, 60_000) // generous: two shared cores
  expect(thread.map((message) => message.text).join('\n')).toContain(MENTION_WORD)
  // A mention with a bad option: the notice quotes it back.
  await postMention(
    JSON.stringify({
      type: 'event_callback',
      team_id: 'T0PLAIN',
      event_id: 'Ev0NOTICE',
      event: {
        type: 'app_mention',
        text: `<@U0BOT> tidal style:${NOTICE_WORD}`,
        ts: '1763000000.000200',
        channel: 'C0',
      },
    }),
  )
  const [notice] = await slack.waitForThread('1763000000.000200', 1, 60_000)
  expect(notice?.text).toContain(NOTICE_WORD)

  // A trial visitor's run.
  const trial = await fetch(new URL('/trial', app.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ topic: `Wave energy ${TRIAL_WORD}`, timeframe: '30d' }),
  })
  expect(trial.status).toBe(302)
  const trialToken = decodeURIComponent(/sx_trial=([^;]+)/.exec(trial.headers.get('set-cookie') ?? '')?.[1] ?? '')
  expect(trialToken.length).toBeGreaterThan(20)
  // Done before the next step scripts the model: its synthesis must not take the hang meant for that run.
  const trialRunId = new URL(trial.headers.get('location') ?? '', app.url).searchParams.get('run') ?? ''
  await waitUntil(async () => {
    const run = await app.db.selectFrom('runs').select('status').where('id', '=', trialRunId).executeTakeFirst()
    return run !== undefined && run.status !== 'running'
  }, 60_000)

  // A run caught between search and synthesis: its checkpoint carries the wave page's text.
  openai.onSynthesize('hang')
  const midway = await postBrief(app.fetch, auth, { topic: 'Wave energy', depth: 'quick' })
  await waitUntil(async () => {
    const run = await app.db
      .selectFrom('runs')
      .select(['current_step', 'checkpoint'])
      .where('id', '=', midway.body.runId)
      .executeTakeFirstOrThrow()
    return run.current_step === 'synthesize' && run.checkpoint !== null
  })

  const everything = await dumpWholeDatabase(app.db)
  // The dump really covers what the session wrote: pg-boss's jobs and the run event log are in it.
  for (const shown of [email, created.prefix, 'T0PLAIN', 'Ev0PLAIN', 'slack.mention', 'research.run', 'query_done']) {
    expect(everything, shown).toContain(shown)
  }
  const secrets: Record<string, string> = {
    password: PASSWORD,
    'API key made on the page': pageKey,
    'API key secret': apiKey.split('_')[2] as string,
    'session token': decodeURIComponent(session.split('=')[1] as string),
    'trial token': trialToken,
    'Slack bot token': BOT_TOKEN.slice('xoxb-'.length),
    'a memory fact': fact as string,
    'a source title': PAGE_TITLE,
    'a source URL': PAGE_HOST,
    'page text': PAGE_TEXT,
    'page text in a checkpoint': CHECKPOINT_TEXT,
    'a topic': TOPIC_WORD,
    'an objective': OBJECTIVE,
    'a focus area': FOCUS,
    'a search query': QUERY_WORD,
    'mention text': MENTION_WORD,
    "a notice quoting a mention's option": NOTICE_WORD,
    "a trial visitor's topic": TRIAL_WORD,
    "a model's refusal, in a warning": REFUSAL_WORD,
  }
  // Every leak at once, by name, so a failure says all that is stored in the clear.
  const inTheClear = Object.entries(secrets).filter(([, secret]) => everything.includes(secret))
  expect(inTheClear.map(([what]) => what)).toEqual([])
  openai.reset()
})
