// A database made by the migrations before 20261122090000_sealed_briefs, holding what that schema kept
// in the clear (a topic, runs with their briefs, an error, a series, run events with a search query, a
// notice, and a Slack mention job still queued with its text), upgraded by booting the new version:
// everything reads as before, topics are still found, the queued mention is acted on, and the
// database no longer holds any of it in the clear.
import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { createMigrator } from '#db/migrate.ts'
import { parseKeyRing, sealJson } from '#server/crypto/key-ring.ts'
import { defineJob, startJobs } from '#server/jobs/boss.ts'
import { SLACK_MENTION } from '#server/jobs/queues.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import { MEMORY_TTL_DAYS } from '#server/topics/contract.ts'
import { loadTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, TEST_MEMORY_KEYS, type TestApp } from '#test/support/app.ts'
import { createEmptyDatabase, dumpAllTables, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { type StubSlack, startStubSlack } from '#test/support/stub-slack.ts'

const LAST_OLD_MIGRATION = '20261121150000_integrations'
const marker = (label: string) => `${label}${randomBytes(5).toString('hex')}`
const TOPIC_WORD = marker('topicword')
const TOPIC = `Sodium cells ${TOPIC_WORD}`
const OBJECTIVE = marker('objective')
const QUERY_WORD = marker('queryword')
const QUERY = `sodium ${QUERY_WORD}`
const ERROR = marker('errorword')
const NOTICE = marker('noticeword')
const MENTION = marker('mentionword')
const BOT_TOKEN = `xoxb-9-9-${randomBytes(8).toString('hex')}`
const DAY = 86_400_000

let old: TestDatabase
let slack: StubSlack
let app: TestApp | undefined
let user: Awaited<ReturnType<typeof createTestAccount>>
const ids = { complete: randomUUID(), failed: randomUUID(), series: randomUUID(), topic: randomUUID() }

beforeAll(async () => {
  slack = await startStubSlack({ tokens: [BOT_TOKEN] })
  old = await createEmptyDatabase()
  const { error } = await createMigrator(old.db).migrateTo(LAST_OLD_MIGRATION)
  if (error) throw error
  await fillOldDatabase()
})
afterAll(async () => {
  await app?.stop()
  await old.drop()
  await slack.close()
})

/** Rows as the previous version wrote them: clear topic keys, briefs, errors, event data and notices. */
async function fillOldDatabase() {
  const db = old.db
  const ring = parseKeyRing(TEST_MEMORY_KEYS)
  user = await createTestAccount(db)
  const accountId = user.account.id
  const brief = {
    topic: TOPIC,
    objective: OBJECTIVE,
    depth: 'quick',
    timeframe: '30d',
    reportStyle: 'executive',
    recurring: true,
    source: 'api',
  }
  const at = new Date(Date.now() - DAY)
  await sql`insert into topics (id, account_id, topic_key) values (${ids.topic}, ${accountId}, ${TOPIC.toLowerCase()})`.execute(
    db,
  )
  // Memory as the old code stored it: facts were bare sentences (no quote, figures or subject).
  const content = {
    topic: TOPIC,
    facts: [
      {
        id: 'f1',
        text: 'Sodium cells passed 5000 cycles',
        sourceUrls: ['https://cells.example/a'],
        firstSeen: { runId: ids.complete, at: at.toISOString() },
      },
    ],
    sources: [
      {
        url: 'https://cells.example/a',
        title: 'Cells',
        publishedDate: null,
        firstSeen: { runId: ids.complete, at: at.toISOString() },
      },
    ],
    ledger: [{ url: 'https://cells.example/a', readAt: at.toISOString() }],
    runs: [{ runId: ids.complete, at: at.toISOString(), newFacts: 1, newSources: 1, urlsRead: 1 }],
  }
  const memory = sealJson(ring, content, `topic_memory:${ids.topic}`)
  await sql`
    insert into topic_memory (topic_id, key_id, ciphertext, run_count, urls_indexed, facts_stored, last_run_at, expires_at)
    values (${ids.topic}, ${memory.keyId}, ${memory.ciphertext}, 1, 1, 1, ${at}, ${new Date(at.getTime() + MEMORY_TTL_DAYS * DAY)})`.execute(
    db,
  )
  await sql`insert into series (id, account_id, brief, status) values (${ids.series}, ${accountId}, ${JSON.stringify(brief)}, 'paused')`.execute(
    db,
  )
  // A report as the old code wrote it: findings without quotes, no updated/contradicted, no integrity.
  const oldReport = {
    summary: 'An old report [1]',
    delta: {
      baseline: true,
      since: null,
      newFindings: [{ text: 'Sodium cells passed 5000 cycles', sources: [1] }],
      summary: 'First run on this topic (baseline): 1 finding recorded.',
    },
    sources: [{ n: 1, url: 'https://cells.example/a', title: 'Cells', publishedAt: null, snippet: 'Sodium cells' }],
    generatedWith: { synthesis: 'old', synthesisKind: 'model', search: 'exa', plan: 'model' },
    usage: { inputTokens: 1, outputTokens: 1, searchCalls: 1, costDollars: null },
  }
  const report = sealJson(ring, oldReport, `run_report:${ids.complete}`)
  await sql`
    insert into runs (id, account_id, topic_key, brief, source, status, has_memory, prior_run_count,
      report_key_id, report, deadline_at, created_at, finished_at, series_id, series_slot)
    values (${ids.complete}, ${accountId}, ${TOPIC.toLowerCase()}, ${JSON.stringify(brief)}, 'api', 'complete', false, 0,
      ${report.keyId}, ${report.ciphertext}, ${at}, ${at}, ${at}, ${ids.series}, 0)`.execute(db)
  await sql`
    insert into runs (id, account_id, topic_key, brief, source, status, has_memory, prior_run_count, error,
      deadline_at, created_at, finished_at)
    values (${ids.failed}, ${accountId}, ${TOPIC.toLowerCase()}, ${JSON.stringify({ ...brief, recurring: false })},
      'api', 'failed', true, 1, ${JSON.stringify({ code: 'openai_unavailable', message: `openai: ${ERROR}` })},
      ${at}, ${new Date(at.getTime() + 1000)}, ${at})`.execute(db)
  for (const [type, data] of [
    ['run_started', { depth: 'quick', source: 'api' }],
    ['step_started', {}],
    ['query_done', { query: QUERY, results: 3, new: 2 }],
    ['complete', { sources: 1, newFindings: 1 }],
  ] as const) {
    await sql`insert into run_events (run_id, type, data) values (${ids.complete}, ${type}, ${JSON.stringify(data)})`.execute(
      db,
    )
  }
  await sql`
    insert into deliveries (run_id, channel, kind, target, notice, status)
    values (null, 'slack', 'notice', ${JSON.stringify({ teamId: 'T0OLD', channel: 'C0', threadTs: '1.1' })},
      ${`style: (got "${NOTICE}")`}, 'sent')`.execute(db)

  // A mention received just before the upgrade: its job, with the text, still waits in pg-boss.
  await createSlackWorkspaces(() => ring).link(db, { teamId: 'T0OLD', accountId, botToken: BOT_TOKEN })
  await sql`insert into webhook_receipts (provider, delivery_id) values ('slack', 'Ev0OLD')`.execute(db)
  const jobs = await startJobs({
    connectionString: old.url,
    definitions: [defineJob({ queue: SLACK_MENTION.queue, schema: z.unknown(), handler: async () => {} })],
    work: false,
    log: testLogger(),
  })
  await jobs.boss.send(SLACK_MENTION.queue, {
    eventId: 'Ev0OLD',
    teamId: 'T0OLD',
    channel: 'C0',
    threadTs: '1763000000.000900',
    text: `<@U0BOT> sodium ${MENTION} depth:quick`,
  })
  await jobs.stop()
}

test('an old database reads as before after the upgrade, and holds none of it in the clear', {
  timeout: 120_000,
}, async () => {
  app = await startTestApp({ databaseUrl: old.url, env: { SLACK_API_URL: slack.apiUrl } })
  const auth = user.auth

  const complete = await (await app.fetch(`/api/briefs/${ids.complete}`, { headers: auth })).json()
  expect(complete).toMatchObject({
    topic: TOPIC,
    status: 'complete',
    brief: { topic: TOPIC, objective: OBJECTIVE, recurring: true },
    report: {
      summary: 'An old report [1]',
      delta: {
        newFindings: [{ text: 'Sodium cells passed 5000 cycles', quote: '', sources: [1] }],
        updated: [],
        contradicted: [],
        confirmed: 0,
      },
      integrity: { claims: 1, shown: 1, droppedUnsupported: 0, recited: 0, ownWords: 0 },
    },
    recurring: { seriesId: ids.series, state: 'paused' },
  })
  const failed = await (await app.fetch(`/api/briefs/${ids.failed}`, { headers: auth })).json()
  expect(failed.error).toEqual({ code: 'openai_unavailable', message: `openai: ${ERROR}` })
  // Found by topic, in any spelling, as before.
  const listed = await (
    await app.fetch(`/api/briefs?topic=${encodeURIComponent(`  ${TOPIC.toUpperCase()} `)}`, { headers: auth })
  ).json()
  expect(listed.runs.map((run: { runId: string }) => run.runId)).toEqual([ids.failed, ids.complete])
  const check = await (
    await app.fetch(`/api/memory/check?topic=${encodeURIComponent(TOPIC)}`, { headers: auth })
  ).json()
  expect(check).toMatchObject({ runCount: 1, factsStored: 1 })
  // The old fact reads as a claim: its figure and subject read from its words, no quote.
  const memory = await loadTopicMemory(app.memory, user.account.id, TOPIC)
  expect(memory?.facts).toEqual([
    expect.objectContaining({
      text: 'Sodium cells passed 5000 cycles',
      quote: '',
      statements: { figures: [{ value: 5000, unit: 'cycl' }], dates: [] },
      lastConfirmed: memory?.facts[0]?.firstSeen.at,
    }),
  ])
  const series = await (await app.fetch('/api/series', { headers: auth })).json()
  expect(series.series).toMatchObject([{ seriesId: ids.series, brief: { objective: OBJECTIVE } }])
  const events = await (await app.fetch(`/api/briefs/${ids.complete}/events`, { headers: auth })).text()
  expect(events).toContain(QUERY)
  expect(events).toContain('"data":{}') // the event without data stays without
  // A new run on the topic counts the old complete run and finds its memory.
  const started = await (
    await app.fetch('/api/briefs', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: TOPIC.toLowerCase(), depth: 'quick' }),
    })
  ).json()
  expect(started).toMatchObject({ hasMemory: true, runCount: 1 })

  // The mention queued before the upgrade is acted on, with its text.
  const [researching] = await slack.waitForThread('1763000000.000900', 1, 60_000)
  expect(researching?.text).toContain(MENTION)

  const { rows } = await sql<{ clear: number }>`
    select (select count(*) from runs where legacy_brief is not null or legacy_topic_key is not null
        or legacy_error is not null)
      + (select count(*) from topics where legacy_topic_key is not null)
      + (select count(*) from series where legacy_brief is not null)
      + (select count(*) from run_events where legacy_data is not null)
      + (select count(*) from deliveries where legacy_notice is not null) as clear`.execute(app.db)
  expect(Number(rows[0]?.clear)).toBe(0)
  const jobs = await sql<{ data: unknown }>`select data from pgboss.job where name = ${SLACK_MENTION.queue}`.execute(
    app.db,
  )
  const everything = `${await dumpAllTables(app.db)}\n${JSON.stringify(jobs.rows)}`
  const markers = {
    topic: TOPIC_WORD,
    objective: OBJECTIVE,
    query: QUERY_WORD,
    error: ERROR,
    notice: NOTICE,
    mention: MENTION,
  }
  const inTheClear = Object.entries(markers).filter(([, secret]) => everything.includes(secret))
  expect(inTheClear.map(([what]) => what)).toEqual([])
})
