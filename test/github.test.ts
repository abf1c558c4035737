// GitHub end to end: signed issue_comment webhooks to the real app, the run, and the pull request
// comments, with GitHub's REST API played by a stub that answers, refuses and rate limits like GitHub.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import { signGithubPayload } from '#server/chat/github/verify.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { integrationCounts, waitForRunEnd } from '#test/support/integrations.ts'
import { type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubGithub, startStubGithub } from '#test/support/stub-github.ts'

const WEBHOOK_SECRET = 'github-webhook-secret-for-tests'
const TOKEN = 'ghs_testtoken0123456789'
const REPO = 'acme/widgets'
const PUBLIC_URL = 'https://sextant.example'

let github: StubGithub
let exa: StubExa
let app: TestApp
let accountId: string

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()

beforeAll(async () => {
  github = await startStubGithub({ token: TOKEN })
  exa = await startStubExa({
    documents: [
      {
        url: 'https://wasm.example/gc-shipped',
        title: 'WebAssembly GC ships in all major browsers',
        publishedDate: day(2),
        text: 'WebAssembly garbage collection (WasmGC) shipped in every major browser, letting Kotlin and Dart compile to wasm.',
      },
      {
        url: 'https://wasm.example/gc-perf',
        title: 'WasmGC performance notes',
        publishedDate: day(3),
        text: 'Early WebAssembly GC benchmarks show Kotlin code running within 20 percent of native JVM speed.',
      },
    ],
  })
  app = await startTestApp({
    env: {
      GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      PUBLIC_URL,
      EXA_API_KEY: 'exa-test-key',
      EXA_BASE_URL: exa.url,
      PROVIDER_TIMEOUT_SECONDS: '2',
      RUN_DEADLINE_QUICK_SECONDS: '20',
      // These tests mention the app more often than an hour's allowance (test/security/mention-limits.test.ts).
      RATE_LIMIT_MENTIONS_PER_HOUR: '1000',
      RATE_LIMIT_MENTIONS_PER_ACCOUNT_PER_HOUR: '1000',
    },
  })
  accountId = (await createTestAccount(app.db)).account.id
  await linkGithubRepository(app.db, { repo: REPO, accountId })
})
afterAll(async () => {
  await app.stop()
  await github.close()
  await exa.close()
})

let nextPr = 40
function commentEvent(
  body: string,
  overrides: { action?: string; pr?: boolean; userType?: string; repo?: string } = {},
) {
  nextPr += 1
  const repo = overrides.repo ?? REPO
  return {
    number: nextPr,
    payload: {
      action: overrides.action ?? 'created',
      issue: {
        number: nextPr,
        title: 'Add a wasm build',
        ...(overrides.pr === false
          ? {}
          : { pull_request: { url: `https://api.github.com/repos/${repo}/pulls/${nextPr}` } }),
      },
      comment: { id: 1, body, user: { login: 'ada', type: overrides.userType ?? 'User' } },
      repository: { full_name: repo, name: repo.split('/')[1], owner: { login: repo.split('/')[0] } },
      sender: { login: 'ada', type: 'User' },
    },
  }
}

async function postGithub(
  payload: object,
  options: { event?: string; delivery?: string; secret?: string; signature?: string | null } = {},
) {
  const raw = JSON.stringify(payload)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-github-event': options.event ?? 'issue_comment',
    'x-github-delivery': options.delivery ?? randomUUID(),
    'user-agent': 'GitHub-Hookshot/test',
  }
  if (options.signature !== null) {
    headers['x-hub-signature-256'] = options.signature ?? signGithubPayload(options.secret ?? WEBHOOK_SECRET, raw)
  }
  return app.fetch('/api/webhooks/github', { method: 'POST', headers, body: raw })
}

function runIdIn(body: string | undefined): string {
  const runId = /\/dashboard\/runs\/([0-9a-f-]{36})\)/.exec(body ?? '')?.[1]
  if (!runId) throw new Error(`no run link in ${body}`)
  return runId
}

test('"@sextant research" on a pull request: acknowledged, researched, the report posted as a comment', async () => {
  const { number, payload } = commentEvent(
    'Before we merge:\n\n@sextant research WebAssembly GC depth:quick style:bullet timeframe:7d\n\nThanks!',
  )
  const response = await postGithub(payload)
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ status: 'accepted' })

  const [ack] = await github.waitForComments(REPO, number, 1)
  expect(ack?.body).toMatch(/^:mag: Researching \*\*WebAssembly GC\*\* \(quick, the last 7 days, bullet style\)/)
  const runId = runIdIn(ack?.body)
  expect(ack?.body).toContain(`[follow it live](${PUBLIC_URL}/dashboard/runs/${runId})`)

  const run = await waitForRunEnd(app.db, runId)
  expect(run).toMatchObject({ status: 'complete', source: 'github', account_id: accountId })
  expect(createRunSeals(app.ring).brief(run)).toEqual({
    topic: 'WebAssembly GC',
    depth: 'quick',
    reportStyle: 'bullet',
    timeframe: '7d',
    recurring: false,
    source: 'github',
  })
  const [, report, ...more] = await github.waitForComments(REPO, number, 2)
  expect(more).toEqual([])
  expect(report?.body).toMatch(/^\*\*Research report: WebAssembly GC\*\*\n\n/)
  expect(report?.body).toContain('[[1](https://wasm.example/')
  expect(report?.body).toContain('**Sources**\n1. [')
  expect(report?.body).toContain(`[Full report on Sextant](${PUBLIC_URL}/dashboard/runs/${runId})`)
})

test('a redelivery with the same X-GitHub-Delivery starts no second run', async () => {
  const { number, payload } = commentEvent('@sextant research WebAssembly GC depth:quick')
  const delivery = randomUUID()
  expect(await (await postGithub(payload, { delivery })).json()).toEqual({ status: 'accepted' })
  expect(await (await postGithub(payload, { delivery })).json()).toEqual({ status: 'duplicate' })
  const [ack] = await github.waitForComments(REPO, number, 1)
  await waitForRunEnd(app.db, runIdIn(ack?.body))
  await github.waitForComments(REPO, number, 2)
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(github.comments.filter((comment) => comment.issueNumber === number)).toHaveLength(2)
})

test('forged, unprefixed and missing signatures answer 401 and store nothing', async () => {
  const before = await integrationCounts(app.db)
  const { payload } = commentEvent('@sextant research WebAssembly GC')
  const raw = JSON.stringify(payload)
  const attempts = [
    await postGithub(payload, { secret: 'not the secret' }),
    await postGithub(payload, { signature: signGithubPayload(WEBHOOK_SECRET, raw).slice('sha256='.length) }),
    await postGithub(payload, { signature: signGithubPayload(WEBHOOK_SECRET, `${raw} `) }),
    await postGithub(payload, { signature: null }),
  ]
  for (const response of attempts) {
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  }
  expect(await integrationCounts(app.db)).toEqual(before)
})

test('only new comments by people, on pull requests, that ask, start anything', async () => {
  const before = await integrationCounts(app.db)
  const outcomes = [
    await postGithub(commentEvent('@sextant research x', { action: 'edited' }).payload),
    await postGithub(commentEvent('@sextant research x', { pr: false }).payload),
    await postGithub(commentEvent('@sextant research x', { userType: 'Bot' }).payload),
    await postGithub(commentEvent('LGTM, cc @sextant').payload),
    await postGithub({ zen: 'Keep it logically awesome.', hook_id: 1 }, { event: 'ping' }),
  ]
  const bodies = await Promise.all(outcomes.map((response) => response.json()))
  expect(bodies.map((body) => body.status)).toEqual(['ignored', 'ignored', 'ignored', 'ignored', 'ignored'])
  expect(bodies.map((body) => body.reason)).toEqual([
    'comment edited',
    'not a pull request',
    'comment by a bot',
    'no "@sextant research" in the comment',
    'event ping',
  ])
  expect(await integrationCounts(app.db)).toEqual(before)
})

test('an invalid request and an unlinked repository get a comment saying what to do', async () => {
  const before = await integrationCounts(app.db)
  const invalid = commentEvent('@sextant research tidal power framework:astrology')
  await postGithub(invalid.payload)
  const [fix] = await github.waitForComments(REPO, invalid.number, 1)
  expect(fix?.body).toMatch(/^framework: unknown framework/)
  // Escaped: GitHub would take a bare <topic> for an HTML tag and show nothing.
  expect(fix?.body).toContain('Usage: &lt;topic> [depth:quick|deep]')

  const unlinked = commentEvent('@sextant research tidal power', { repo: 'someone/else' })
  expect(await (await postGithub(unlinked.payload)).json()).toEqual({ status: 'accepted' })
  const [link] = await github.waitForComments('someone/else', unlinked.number, 1)
  expect(link?.body).toContain('npm run cli -- github link --repo someone/else')
  expect((await integrationCounts(app.db)).runs).toBe(before.runs) // neither started a run
})

test('a rate-limited comment is retried after Retry-After', async () => {
  github.rateLimitNext(1, 1)
  const { number, payload } = commentEvent('@sextant research WasmGC performance depth:quick')
  await postGithub(payload)
  const [ack] = await github.waitForComments(REPO, number, 1)
  expect(github.statuses).toContain(403)
  const runId = runIdIn(ack?.body)
  // The comment reaches the stub a moment before the delivery is marked sent.
  const delivery = () =>
    app.db
      .selectFrom('deliveries')
      .select(['status', 'attempts', 'last_error'])
      .where('run_id', '=', runId)
      .where('kind', '=', 'started')
      .executeTakeFirstOrThrow()
  await expect.poll(delivery).toEqual({ status: 'sent', attempts: 1, last_error: 'GitHub rate limited the comment' })
  await waitForRunEnd(app.db, runId)
  await github.waitForComments(REPO, number, 2)
})

test('the Slack webhook answers 503 with a problem when SLACK_SIGNING_SECRET is not set', async () => {
  const response = await app.fetch('/api/webhooks/slack', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"type":"url_verification","challenge":"x"}',
  })
  expect(response.status).toBe(503)
  expect((await response.json()).detail).toContain('SLACK_SIGNING_SECRET')
})

test('a webhook body over 1 MiB is refused with 413', async () => {
  const huge = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) })
  const response = await app.fetch('/api/webhooks/github', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'issue_comment' },
    body: huge,
  })
  expect(response.status).toBe(413)
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
})
