// Inputs the property tests beside this file found answered with a 500, kept as plain examples.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signGithubPayload } from '#server/chat/github/verify.ts'
import { signSlackRequest } from '#server/chat/slack/verify.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1000', SLACK_SIGNING_SECRET: 's', GITHUB_WEBHOOK_SECRET: 'g' },
  })
})
afterAll(() => app.stop())

async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  return response.json()
}

test('a NUL character or an unpaired surrogate (which Postgres cannot store) is a 400 naming the field', async () => {
  const user = await createTestAccount(app.db)
  const json = { ...user.auth, 'Content-Type': 'application/json' }
  const before = await snapshotState(app.db)
  const cases: Array<[string, RequestInit, string]> = [
    ['/api/memory/check?topic=a%00b', { headers: user.auth }, 'topic'],
    ['/api/briefs?topic=%00', { headers: user.auth }, 'topic'],
    ['/api/briefs', { method: 'POST', headers: json, body: JSON.stringify({ topic: 'a\u0000b' }) }, 'topic'],
    [
      '/api/briefs',
      { method: 'POST', headers: json, body: JSON.stringify({ topic: 'ok', objective: 'x\u0000' }) },
      'objective',
    ],
    ['/api/briefs', { method: 'POST', headers: json, body: JSON.stringify({ topic: 'ok', focus: '\u0000' }) }, 'focus'],
    ['/api/keys', { method: 'POST', headers: json, body: JSON.stringify({ name: '\u0000' }) }, 'name'],
    ['/api/briefs', { method: 'POST', headers: json, body: JSON.stringify({ topic: 'a\ud800b' }) }, 'topic'],
    [
      '/api/briefs',
      { method: 'POST', headers: json, body: JSON.stringify({ topic: 'ok', objective: '\udfff' }) },
      'objective',
    ],
  ]
  for (const [path, init, field] of cases) {
    const problem = await expectProblem(await app.fetch(path, init), 400)
    expect(problem.errors, path).toEqual([{ path: field, message: expect.stringMatching(/U\+0000/) }])
  }
  // A prefix with a NUL names no key.
  await expectProblem(await app.fetch('/api/keys/%00', { method: 'DELETE', headers: user.auth }), 404)
  expectSameState(await snapshotState(app.db), before, 'refused NUL input')
})

test('a refused brief whose problem quotes a NUL, sent with an Idempotency-Key, is still a problem', async () => {
  const user = await createTestAccount(app.db)
  const headers = { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'nul-key' }
  const body = JSON.stringify({ topic: 'fine', '\u0000': true })
  for (let attempt = 0; attempt < 2; attempt++) {
    const problem = await expectProblem(await app.fetch('/api/briefs', { method: 'POST', headers, body }), 400)
    expect(problem.errors?.[0]?.message).toMatch(/Unrecognized key/)
  }
})

test('a URL over the 16 KiB header limit is a 431 problem, not a bare status line', async () => {
  const response = await app.fetch(`/api/frameworks?q=${'x'.repeat(20_000)}`)
  const problem = await expectProblem(response, 431)
  expect(problem).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' })
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
})

test('signed webhooks whose stored fields carry a NUL are refused or ignored, and store nothing', async () => {
  const before = await snapshotState(app.db)
  const timestamp = Math.floor(Date.now() / 1000)
  const mention = (eventId: string, text: string) =>
    JSON.stringify({
      type: 'event_callback',
      team_id: 'T1',
      event_id: eventId,
      event: { type: 'app_mention', text, ts: '1.1', channel: 'C1' },
    })
  const slack = (body: string) =>
    app.fetch('/api/webhooks/slack', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signSlackRequest('s', timestamp, body),
      },
      body,
    })
  await expectProblem(await slack(mention('E\u00001', '<@U1> topic')), 400)
  expect(await (await slack(mention('E2', '<@U1> a\u0000b'))).json()).toMatchObject({ status: 'ignored' })
  expect(await (await slack(mention('E3', '<@U1> a\ud800b'))).json()).toMatchObject({ status: 'ignored' })

  const comment = JSON.stringify({
    action: 'created',
    issue: { number: 1, pull_request: {} },
    comment: { body: '@sextant research a\u0000b', user: { login: 'x', type: 'User' } },
    repository: { full_name: 'acme/widgets' },
  })
  const github = await app.fetch('/api/webhooks/github', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issue_comment',
      'x-github-delivery': 'd1',
      'x-hub-signature-256': signGithubPayload('g', comment),
    },
    body: comment,
  })
  await expectProblem(github, 400)
  expectSameState(await snapshotState(app.db), before, 'signed webhooks with NUL characters')
})

test('a page action posted without a readable form (JSON, no body, broken multipart) is a 4xx, not a 500', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const origin = new URL(app.url).origin
  const bodies: Array<[string, Record<string, string>, string | undefined]> = [
    ['json', { 'Content-Type': 'application/json' }, '{"topic":"x"}'],
    ['none', {}, undefined],
    ['broken multipart', { 'Content-Type': 'multipart/form-data; boundary=x' }, '--x\r\nnot a part'],
  ]
  const before = await snapshotState(app.db)
  for (const path of ['/signup', '/login', '/trial', '/dashboard', '/dashboard/keys', '/dashboard/series']) {
    for (const [kind, headers, body] of bodies) {
      const response = await app.fetch(path, {
        method: 'POST',
        headers: { Origin: origin, Cookie: cookie, ...headers },
        body,
        redirect: 'manual',
      })
      // Not a form at all: 415 from the page body check; an empty post reaches the action: 400.
      expect(response.status, `${path} ${kind}`).toBe(kind === 'none' ? 400 : 415)
      if (kind !== 'none') continue
      // The page says what happened: a bad request, not a server error.
      const html = await response.text()
      expect(html, `${path} ${kind}`).toMatch(/<h1[^>]*>400 Bad Request<\/h1>/)
      expect(html, `${path} ${kind}`).toContain('<title>400 Bad Request · Sextant</title>')
    }
  }
  expectSameState(await snapshotState(app.db), before, 'unreadable form posts')
})
