// The API answers what its OpenAPI document says: a realistic session through every REST operation,
// each answer checked against the document the app serves (status, required headers, and the JSON
// body against its schema, no property more or less).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { unreachableOpenSources } from '#test/support/closed-port.ts'
import { contractCheckedFetch } from '#test/support/contract.ts'
import { postSignedGithubComment, postSignedSlackEvent } from '#test/support/integrations.ts'
import { waitForRun } from '#test/support/runs.ts'

const SLACK_SECRET = 'slack-secret'
const GITHUB_SECRET = 'github-secret'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { SLACK_SIGNING_SECRET: SLACK_SECRET, GITHUB_WEBHOOK_SECRET: GITHUB_SECRET } })
})
afterAll(() => app.stop())

async function checked() {
  const document = await (await app.fetch('/api/openapi.json')).json()
  return contractCheckedFetch(app.fetch, document)
}

test('every answer of a session through the whole API is what the document says', async () => {
  const { fetch, problems, operations } = await checked()
  const user = await createTestAccount(app.db)
  const json = (method: string, body: unknown) => ({
    method,
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const read = async (path: string, init: RequestInit = { headers: user.auth }) => (await fetch(path, init)).json()

  await read('/api/me')
  await fetch('/api/me')
  await read('/api/keys')
  const created = await read('/api/keys', json('POST', { name: 'second' }))
  await fetch('/api/keys', json('POST', {}))
  await fetch(`/api/keys/${created.prefix}`, { method: 'DELETE', headers: user.auth })
  await fetch('/api/keys/nosuchky', { method: 'DELETE', headers: user.auth })

  await fetch('/api/memory/check?topic=never%20researched', { headers: user.auth })
  const started = await read('/api/briefs', json('POST', { topic: 'heat pumps', depth: 'quick' }))
  await fetch('/api/briefs', json('POST', { topic: 'heat pumps', depth: 'sideways' }))
  expect((await waitForRun(fetch, user.auth, started.runId)).status).toBe('complete')
  await fetch(`/api/briefs/${started.runId}`, { headers: user.auth })
  await fetch(`/api/briefs/${started.runId}`, { method: 'DELETE', headers: user.auth })
  await fetch('/api/memory/check?topic=heat%20pumps', { headers: user.auth })
  const events = await fetch(`/api/briefs/${started.runId}/events`, { headers: user.auth })
  await events.text()
  await fetch(`/api/briefs/${started.runId}/events`, { headers: { ...user.auth, 'Last-Event-ID': '999999' } })

  const recurring = await read('/api/briefs', json('POST', { topic: 'solar tariffs', depth: 'quick', recurring: true }))
  const run = await waitForRun(fetch, user.auth, recurring.runId)
  const seriesId = (await read(`/api/briefs/${run.runId}`)).recurring.seriesId
  await fetch('/api/series', { headers: user.auth })
  await fetch(`/api/series/${seriesId}`, { headers: user.auth })
  await fetch(`/api/series/${seriesId}`, json('PATCH', { status: 'paused' }))
  await fetch(`/api/series/${seriesId}`, json('PATCH', { status: 'stopped' }))
  await fetch(`/api/series/${seriesId}`, { method: 'DELETE', headers: user.auth })
  await fetch(`/api/series/${seriesId}`, { method: 'DELETE', headers: user.auth })

  await fetch('/api/briefs?limit=2', { headers: user.auth })
  await fetch('/api/briefs?status=failed&topic=heat%20pumps', { headers: user.auth })
  await fetch('/api/briefs?limit=0', { headers: user.auth })
  await fetch('/api/frameworks')
  await fetch('/api/frameworks?category=astrology')
  await fetch('/api/frameworks/pestle')
  await fetch('/api/frameworks/nope')
  await fetch('/api/openapi.json')
  await fetch('/healthz')
  await fetch('/readyz')

  await postSignedSlackEvent(fetch, SLACK_SECRET, { type: 'url_verification', challenge: 'c' })
  await postSignedSlackEvent(fetch, SLACK_SECRET, { type: 'block_actions' })
  await postSignedGithubComment(fetch, GITHUB_SECRET, { action: 'deleted' })
  await fetch('/api/webhooks/github', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })

  expect(problems).toEqual([])
  expect(operations.size).toBeGreaterThanOrEqual(21)
})

test('a key whose account was deleted a moment ago gets 401 at /api/me, not an answer without its account', async () => {
  const { fetch, problems } = await checked()
  const user = await createTestAccount(app.db)
  // The first answer leaves the key in the verification cache, which outlives the account's rows.
  expect((await fetch('/api/me', { headers: user.auth })).status).toBe(200)
  await app.db.deleteFrom('accounts').where('id', '=', user.account.id).execute()
  const response = await fetch('/api/me', { headers: user.auth })
  expect(response.status).toBe(401)
  expect(problems).toEqual([])
})

test('the report of a run whose web was unreachable (the corpus answered instead) is what the document says', async () => {
  const offline = await startTestApp({
    env: {
      SEARCH_PROVIDER: 'open',
      ...(await unreachableOpenSources()),
    },
  })
  try {
    const document = await (await offline.fetch('/api/openapi.json')).json()
    const { fetch, problems } = contractCheckedFetch(offline.fetch, document)
    const user = await createTestAccount(offline.db)
    const started = await (
      await fetch('/api/briefs', {
        method: 'POST',
        headers: { ...user.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ topic: 'sodium-ion batteries', depth: 'quick' }),
      })
    ).json()
    const run = await waitForRun(fetch, user.auth, started.runId, 60_000)
    expect(run.status, JSON.stringify(run.error)).toBe('complete')
    const report = (await (await fetch(`/api/briefs/${started.runId}`, { headers: user.auth })).json()).report
    // The fields the document must describe: the corpus, the fallback, the notice, each source's corpus.
    expect(report.generatedWith).toMatchObject({ corpus: 'sample', offlineFallback: true })
    expect(report.notice).toEqual(expect.any(String))
    expect(report.sources[0]?.corpus).toBe('sample')
    await (await fetch(`/api/briefs/${started.runId}/events`, { headers: user.auth })).text()
    expect(problems).toEqual([])
  } finally {
    await offline.stop()
  }
}, 120_000)
