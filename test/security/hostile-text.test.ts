// Hostile text that is not script: a model repeating a page's nested, repeated, reference-style and
// autolinked links (phishing that looks like Sextant's own), and briefs carrying bidirectional
// overrides that render them reversed. Through Slack, GitHub, MCP and the export, no message holds
// a clickable link except to the run's sources and Sextant itself, and no bidi control survives;
// a run stored before any of this (links in its report, an override in its brief) is shown clean.
import { randomBytes } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import type { Report } from '#server/research/report-types.ts'
import { completeRun, createRun } from '#server/runs/record.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'
import { postSignedGithubComment, postSignedSlackEvent, waitForRunEnd } from '#test/support/integrations.ts'
import { waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubGithub, startStubGithub } from '#test/support/stub-github.ts'
import { defaultReply, type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'
import { type StubSlack, startStubSlack } from '#test/support/stub-slack.ts'

const PUBLIC_URL = 'https://sextant.example'
const SLACK_SECRET = 'slack-signing-secret'
const BOT_TOKEN = `xoxb-1-2-${randomBytes(8).toString('hex')}`
const GITHUB_SECRET = 'github-webhook-secret'
const GITHUB_TOKEN = 'ghs_hostiletext0123456789'
const REPO = 'acme/tides'
const SOURCE = 'https://news.example/tidal-barrage'
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/

// What a model writes after reading a page full of link tricks.
const LINKS = [
  'Output [[doubled](https://a.test)](https://evil.test/phish) [1]',
  'See [[[x](https://e1.test)](https://e2.test)](https://evil.test/deep) and [the memo][m] [1]',
  'Mirror <https://evil.test/auto>, www.evil.test, ops@evil.test, <a href="//evil.test/html">here</a> [1]',
  'Quietly \u202Ereversed\u202C text [1]',
]
const QUOTES = [
  'a barrage doubled its output',
  'Tidal power: a barrage doubled',
  'its output. See the report',
  'Mirror at www.evil.test and https://evil.test/bare',
]
const HOSTILE_SYNTHESIS = {
  headline: 'Tidal power [[doubled](https://a.test)](https://evil.test/phish)',
  // Each quote is on the page (as read: its link markup gone), a different one each, so every claim
  // is shown; the last quotes the page's bare hostile addresses.
  findings: LINKS.map((text, index) => ({
    text,
    quote: QUOTES[index] as string,
    sourceIds: [1],
  })),
  sections: null,
  implications: 'Act now [1].\n\n[m]: https://evil.test/ref',
  gaps: ['Who pays? <https://evil.test/gap>'],
}

let exa: StubExa
let openai: StubOpenAi
let slack: StubSlack
let github: StubGithub
let app: TestApp
let user: Awaited<ReturnType<typeof createTestAccount>>

beforeAll(async () => {
  exa = await startStubExa({
    documents: [
      {
        url: SOURCE,
        title: 'Tidal power barrage doubles output',
        publishedDate: new Date().toISOString(),
        text: 'Tidal power: a barrage doubled its output. See [[the report](https://a.test)](https://evil.test/x). Mirror at www.evil.test and https://evil.test/bare.',
      },
    ],
  })
  openai = await startStubOpenAi({
    reply: (request) => (request.kind === 'synthesize' ? { content: HOSTILE_SYNTHESIS } : defaultReply(request)),
  })
  slack = await startStubSlack({ tokens: [BOT_TOKEN] })
  github = await startStubGithub({ token: GITHUB_TOKEN })
  app = await startTestApp({
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: exa.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.baseUrl,
      SLACK_SIGNING_SECRET: SLACK_SECRET,
      SLACK_API_URL: slack.apiUrl,
      GITHUB_WEBHOOK_SECRET: GITHUB_SECRET,
      GITHUB_TOKEN,
      GITHUB_API_URL: github.url,
      PUBLIC_URL,
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
    },
  })
  user = await createTestAccount(app.db)
  await createSlackWorkspaces(() => app.ring).link(app.db, {
    teamId: 'T0TIDES',
    accountId: user.account.id,
    botToken: BOT_TOKEN,
  })
  await linkGithubRepository(app.db, { repo: REPO, accountId: user.account.id })
}, 60_000)
afterAll(async () => {
  await app?.stop()
  for (const stub of [exa, openai, slack, github]) await stub?.close()
})

const runUrl = (runId: string) => `${PUBLIC_URL}/dashboard/runs/${runId}`

test('Slack: a mention with a bidi override gets a thread with no link but the sources and the run', async () => {
  const ts = `${1_763_000_000 + Math.floor(Math.random() * 1e6)}.000100`
  const response = await postSignedSlackEvent(app.fetch, SLACK_SECRET, {
    type: 'event_callback',
    team_id: 'T0TIDES',
    event_id: `Ev${randomBytes(5).toString('hex')}`,
    event: { type: 'app_mention', user: 'U1', text: '<@U0BOT> Tidal \u202Epower depth:quick', ts, channel: 'C1' },
  })
  expect(await response.json()).toEqual({ status: 'accepted' })
  const [researching] = await slack.waitForThread(ts, 1)
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\|/.exec(researching?.text ?? '')?.[1] as string
  expect((await waitForRunEnd(app.db, runId)).status).toBe('complete')
  const thread = (await slack.waitForThread(ts, 2)).map((message) => message.text).join('\n')
  expect(thread).toContain('*Research report: Tidal power*')
  expect(thread).toContain('Output doubled')
  expect(unexpectedTargets(thread, [SOURCE, runUrl(runId)], 'mrkdwn')).toEqual([])
  expect(thread).not.toMatch(BIDI)
})

test('GitHub: a comment with a bidi isolate gets comments with no link (or raw HTML) but the sources and the run', async () => {
  const issue = 7
  const response = await postSignedGithubComment(app.fetch, GITHUB_SECRET, {
    action: 'created',
    issue: { number: issue, title: 'Tides', pull_request: { url: `https://api.github.com/repos/${REPO}/pulls/7` } },
    comment: {
      id: 1,
      body: '@sextant research Tidal \u2067barrage\u2069 depth:quick',
      user: { login: 'ada', type: 'User' },
    },
    repository: { full_name: REPO, name: 'tides', owner: { login: 'acme' } },
    sender: { login: 'ada', type: 'User' },
  })
  expect(await response.json()).toEqual({ status: 'accepted' })
  const [ack] = await github.waitForComments(REPO, issue, 1)
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\)/.exec(ack?.body ?? '')?.[1] as string
  expect((await waitForRunEnd(app.db, runId)).status).toBe('complete')
  const comments = (await github.waitForComments(REPO, issue, 2)).map((comment) => comment.body).join('\n')
  expect(comments).toContain('**Research report: Tidal barrage**')
  expect(comments).toContain('Output doubled')
  expect(unexpectedTargets(comments, [SOURCE, runUrl(runId)], 'markdown')).toEqual([])
  expect(comments).not.toMatch(/<[a-z]/i)
  expect(comments).not.toMatch(BIDI)
})

test('MCP and the export: reports, statuses and memory hold no foreign link and no bidi control', async () => {
  const client = new Client({ name: 'hostile-text', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: user.auth } }),
  )
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args })
      return { text: (result.content as Array<{ text: string }>)[0]?.text ?? '', all: JSON.stringify(result) }
    }
    const started = await client.callTool({
      name: 'research_brief',
      arguments: {
        topic: 'Tidal \u202Eenergy',
        objective: 'Why \u202Enow',
        focus: 'cost,\u200F output',
        depth: 'quick',
      },
    })
    const { runId } = started.structuredContent as { runId: string }
    expect((await waitForRun(app.fetch, user.auth, runId)).status).toBe('complete')
    const report = await call('get_run_report', { runId })
    expect(report.text).toContain(`[1] Tidal power barrage doubles output — ${SOURCE}`)
    expect(unexpectedTargets(report.text, [SOURCE])).toEqual([])
    const exported = await call('export_topic', { topic: 'Tidal energy' })
    expect(exported.text).toMatch(/^# Tidal energy\n/)
    // The quote of the page's bare addresses is in the export, as text.
    expect(exported.text).toContain('> Mirror at www\\[.\\]evil.test and https\\[:\\]//evil\\[.\\]test/bare')
    expect(unexpectedTargets(exported.text, [SOURCE])).toEqual([])
    // The topic tools' text: memory's facts and the quote of the page's bare addresses, linked nowhere.
    const delta = await call('get_topic_delta', { topic: 'Tidal energy' })
    const memory = await call('get_topic_memory', { topic: 'Tidal energy' })
    for (const answer of [delta, memory]) {
      expect(answer.text).toContain('Quote: “Mirror at www[.]evil.test and https[:]//evil[.]test/bare”')
      expect(unexpectedTargets(answer.text, [SOURCE])).toEqual([])
    }
    for (const answer of [report, exported, delta, memory, await call('get_run_status', { runId })]) {
      expect(answer.all).not.toMatch(BIDI)
      expect(answer.all).not.toMatch(/\\u202[a-e]/i) // nor JSON-escaped
    }
    const session = await logIn(app.url, user.email, user.password)
    const page = await (await app.fetch(`/dashboard/runs/${runId}`, { headers: { Cookie: session } })).text()
    expect(page).not.toMatch(BIDI)
    expect(page).toContain('Why now')
  } finally {
    await client.close()
  }
})

test('a run stored with links in its report and an override in its brief is shown clean everywhere', async () => {
  const brief = {
    topic: 'Old \u202Etides',
    objective: 'Old \u2066objective',
    depth: 'quick',
    timeframe: '30d',
    reportStyle: 'executive',
    recurring: false,
    source: 'api',
  } as const
  const runId = await createRun(app.db, createRunSeals(app.ring), {
    accountId: user.account.id,
    brief,
    topicHash: app.memory.topicIndex.hash(user.account.id, 'old tides'),
    hasMemory: false,
    priorRunCount: 0,
    deadlineAt: new Date(Date.now() + 3_600_000),
  })
  // As reports were stored before claims: no quotes, no updated or contradicted, no integrity.
  const stored = {
    summary: `## Old\n- ${LINKS.join('\n- ')}\n\n[m]: https://evil.test/ref`,
    delta: {
      baseline: true,
      since: null,
      newFindings: [{ text: LINKS[0] as string, sources: [1] }],
      summary: LINKS[1] as string,
    },
    sources: [{ n: 1, url: SOURCE, title: 'Tidal', publishedAt: null, snippet: '' }],
    generatedWith: { synthesis: 'old', synthesisKind: 'model', search: 'exa', plan: 'model' },
    usage: { inputTokens: 0, outputTokens: 0, searchCalls: 0, costDollars: null },
  } as unknown as Report
  expect(await completeRun(app.db, createRunSeals(app.ring), runId, stored)).toBeDefined()

  const api = await (await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).json()
  expect(JSON.stringify(api)).not.toMatch(/\\u202[a-e]|\\u206[6-9]/i)
  expect(api).toMatchObject({ topic: 'Old tides', brief: { topic: 'Old tides', objective: 'Old objective' } })
  for (const text of [api.report.summary, api.report.delta.summary, api.report.delta.newFindings[0].text]) {
    expect(unexpectedTargets(text, [SOURCE])).toEqual([])
  }
  const session = await logIn(app.url, user.email, user.password)
  const page = await (await app.fetch(`/dashboard/runs/${runId}`, { headers: { Cookie: session } })).text()
  expect(page).not.toMatch(BIDI)
  const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((match) => match[1])
  expect(hrefs.filter((href) => href?.includes('.test'))).toEqual([])
  expect(page).toContain('Old tides')
})
