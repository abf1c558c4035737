// Properties of the Slack and GitHub webhooks: a request without a valid signature is a 401 problem
// that stores nothing, whatever its body; a correctly signed body of garbage is refused (4xx problem,
// nothing stored) or acknowledged as ignored (nothing stored), never a 5xx.
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signGithubPayload } from '#server/chat/github/verify.ts'
import { signSlackRequest } from '#server/chat/slack/verify.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { anyJson, fuzzRuns, nastyString } from '#test/support/hostile-input.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

const { numRuns: NUM_RUNS, timeout: FUZZ_TIMEOUT } = fuzzRuns(150)
const SLACK_SECRET = 'slack-fuzz-secret'
const GITHUB_SECRET = 'github-fuzz-secret'

let app: TestApp
beforeAll(async () => {
  // Web only: an accepted mention is queued and never acted on, so the database holds still.
  app = await startTestApp({
    env: { RUN_ROLE: 'web', SLACK_SIGNING_SECRET: SLACK_SECRET, GITHUB_WEBHOOK_SECRET: GITHUB_SECRET },
  })
})
afterAll(() => app.stop())

/** Anything at all in place of a field. */
const garbage = fc.oneof(anyJson, nastyString, fc.constant(undefined))

/** A copy of `value` with the field at `path` (dotted) replaced. */
function withField(value: Record<string, unknown>, path: string, replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(value)
  const keys = path.split('.')
  let node = copy
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {}
    node = node[key] as Record<string, unknown>
  }
  node[keys.at(-1) as string] = replacement
  return copy
}

/**
 * Well-formed payloads with hostile text in every field that is kept, and the same with one or two
 * fields swapped for anything at all: most of them get past the schema and reach the insert.
 */
function bent(valid: fc.Arbitrary<Record<string, unknown>>, fields: string[]) {
  const mutated = fc
    .tuple(valid, fc.array(fc.tuple(fc.constantFrom(...fields), garbage), { minLength: 1, maxLength: 2 }))
    .map(([value, changes]) => changes.reduce((next, [path, replacement]) => withField(next, path, replacement), value))
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 4, arbitrary: mutated }, anyJson)
}

const slackPayload = bent(
  fc
    .record({
      eventId: fc.oneof(fc.uuid(), nastyString),
      teamId: fc.oneof(fc.constant('T0FUZZ'), nastyString),
      text: nastyString,
      channel: fc.oneof(fc.constant('C0FUZZ'), nastyString),
      ts: fc.oneof(fc.constant('1763000000.000100'), nastyString),
      threadTs: fc.option(nastyString, { nil: undefined }),
    })
    .map(({ eventId, teamId, text, channel, ts, threadTs }) => ({
      type: 'event_callback',
      team_id: teamId,
      event_id: eventId,
      event: {
        type: 'app_mention',
        text: `<@U0BOT> ${text}`,
        ts,
        channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      },
    })),
  [
    'type',
    'team_id',
    'event_id',
    'challenge',
    'event',
    'event.type',
    'event.text',
    'event.ts',
    'event.channel',
    'event.thread_ts',
    'event.bot_id',
    'event.subtype',
  ],
)

const githubPayload = bent(
  fc
    .record({
      body: nastyString,
      number: fc.integer({ min: -5, max: 1e6 }),
      login: nastyString,
      repo: fc.oneof(fc.constant('acme/widgets'), nastyString),
    })
    .map(({ body, number, login, repo }) => ({
      action: 'created',
      issue: { number, pull_request: { url: 'https://github.example/pr' } },
      comment: { body: `@sextant research ${body}`, user: { login, type: 'User' } },
      repository: { full_name: repo },
    })),
  [
    'action',
    'issue',
    'issue.number',
    'issue.pull_request',
    'comment',
    'comment.body',
    'comment.user',
    'comment.user.type',
    'repository.full_name',
  ],
)

/** A body as bytes: the payload's JSON most of the time, or something that is not JSON at all. */
function rawBody(payload: fc.Arbitrary<unknown>) {
  return fc.oneof(
    { weight: 5, arbitrary: payload.map((value) => JSON.stringify(value) ?? '') },
    fc.constantFrom('', '{', 'payload=%7B%7D', '\u0000', '[1,2'),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  )
}

function expectAcknowledgedOrRefused(status: number, body: Record<string, unknown>, what: string) {
  expect(status, what).toBeLessThan(500)
  if (status >= 400) {
    expect(body, what).toMatchObject({ status, title: expect.any(String) })
  } else {
    expect(status, what).toBe(200)
  }
}

async function post(path: string, body: string, headers: Record<string, string>) {
  const response = await app.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  const text = await response.text()
  return { response, text, json: text ? JSON.parse(text) : {} }
}

test('Slack: without a valid signature, any body is a 401 problem and stores nothing', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  const headers = fc.record(
    {
      timestamp: fc.oneof(fc.constant(String(Math.floor(Date.now() / 1000))), nastyString, fc.integer().map(String)),
      signature: fc.oneof(
        nastyString,
        fc.stringMatching(/^v0=[0-9a-f]{64}$/),
        // Signed with another secret, or over another body: the two forgeries that matter.
        fc.constant(signSlackRequest('wrong-secret', Math.floor(Date.now() / 1000), '{}')),
      ),
    },
    { requiredKeys: [] },
  )
  await fc.assert(
    fc.asyncProperty(rawBody(slackPayload), headers, async (body, { timestamp, signature }) => {
      const before = await snapshotState(app.db)
      const sent: Record<string, string> = {}
      if (timestamp !== undefined) sent['x-slack-request-timestamp'] = timestamp.replace(/[^\x20-\x7e]/g, '')
      if (signature !== undefined) sent['x-slack-signature'] = signature.replace(/[^\x20-\x7e]/g, '')
      const { response, json } = await post('/api/webhooks/slack', body, sent)
      const what = `slack ${body.slice(0, 200)} → ${response.status}`
      expect(response.status, what).toBe(401)
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      expect(json).toMatchObject({ status: 401 })
      expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
})

test('Slack: a correctly signed body of garbage is refused or ignored, never a 5xx, and stores only an accepted mention', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  await fc.assert(
    fc.asyncProperty(rawBody(slackPayload), async (body) => {
      const before = await snapshotState(app.db)
      const timestamp = Math.floor(Date.now() / 1000)
      const { response, json } = await post('/api/webhooks/slack', body, {
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signSlackRequest(SLACK_SECRET, timestamp, body),
      })
      const what = `slack ${body.slice(0, 300)} → ${response.status} ${JSON.stringify(json).slice(0, 300)}`
      expectAcknowledgedOrRefused(response.status, json, what)
      if (response.status === 200 && json.status === 'accepted') return // a real mention: recorded and queued
      if (response.status === 200 && !('challenge' in json)) {
        expect(['ignored', 'duplicate'], what).toContain(json.status)
      }
      expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
})

test('GitHub: without a valid signature, any body is a 401 problem and stores nothing', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  const headers = fc.record(
    {
      signature: fc.oneof(
        nastyString,
        fc.stringMatching(/^sha256=[0-9a-f]{64}$/),
        fc.constant(signGithubPayload('wrong-secret', '{}')),
      ),
      event: fc.constantFrom('issue_comment', 'ping', 'push'),
      delivery: fc.oneof(fc.uuid(), nastyString),
    },
    { requiredKeys: ['event'] },
  )
  await fc.assert(
    fc.asyncProperty(rawBody(githubPayload), headers, async (body, { signature, event, delivery }) => {
      const before = await snapshotState(app.db)
      const sent: Record<string, string> = { 'x-github-event': event }
      if (signature !== undefined) sent['x-hub-signature-256'] = signature.replace(/[^\x20-\x7e]/g, '')
      if (delivery !== undefined) sent['x-github-delivery'] = delivery.replace(/[^\x20-\x7e]/g, '')
      const { response, json } = await post('/api/webhooks/github', body, sent)
      const what = `github ${body.slice(0, 200)} → ${response.status}`
      expect(response.status, what).toBe(401)
      expect(json).toMatchObject({ status: 401 })
      expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
})

test('GitHub: a correctly signed body of garbage is refused or ignored, never a 5xx, and stores only an accepted mention', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  const headers = fc.record({
    event: fc.oneof({ weight: 4, arbitrary: fc.constant('issue_comment') }, fc.constantFrom('ping', '', 'push')),
    delivery: fc.oneof(
      { weight: 4, arbitrary: fc.uuid() },
      nastyString.map((text) => text.replace(/[^\x20-\x7e]/g, '')),
    ),
  })
  await fc.assert(
    fc.asyncProperty(rawBody(githubPayload), headers, async (body, { event, delivery }) => {
      const before = await snapshotState(app.db)
      const { response, json } = await post('/api/webhooks/github', body, {
        'x-github-event': event,
        'x-github-delivery': delivery,
        'x-hub-signature-256': signGithubPayload(GITHUB_SECRET, body),
      })
      const what = `github ${event} ${body.slice(0, 300)} → ${response.status} ${JSON.stringify(json).slice(0, 300)}`
      expectAcknowledgedOrRefused(response.status, json, what)
      if (response.status === 200 && json.status === 'accepted') return
      if (response.status === 200) expect(['ignored', 'duplicate'], what).toContain(json.status)
      expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
})
