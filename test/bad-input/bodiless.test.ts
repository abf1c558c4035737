// A request that takes no body (a DELETE, "run now", a rotation) refuses one with something in it, as
// a 400 problem naming the body, and changes nothing: a client that sends one expects it to mean
// something. No body, or an empty JSON object, is none (issue 41, item 10).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RUN_ROLE: 'web' } })
})
afterAll(() => app.stop())

const BODILESS: Array<[string, string]> = [
  ['DELETE', '/api/keys/sx_nope'],
  ['DELETE', '/api/briefs/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/api/series/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/series/00000000-0000-4000-8000-000000000000/run'],
  ['DELETE', '/api/email/addresses/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/api/feeds/00000000-0000-4000-8000-000000000000'],
  ['DELETE', '/api/webhooks/endpoints/00000000-0000-4000-8000-000000000000'],
  ['POST', '/api/webhooks/endpoints/00000000-0000-4000-8000-000000000000/rotate'],
  ['POST', '/api/webhooks/secret/rotate'],
]

test('every bodiless operation refuses a body with anything in it, and changes nothing', async () => {
  const user = await createTestAccount(app.db)
  const before = await snapshotState(app.db)
  for (const [method, path] of BODILESS) {
    for (const body of ['{"confirm":true}', '[]', '[{}]']) {
      const response = await app.fetch(path, {
        method,
        headers: { ...user.auth, 'Content-Type': 'application/json' },
        body,
      })
      expect(response.status, `${method} ${path} ${body}`).toBe(400)
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      const problem = await response.json()
      expect(problem).toMatchObject({
        type: 'https://sextant.dev/problems/validation',
        errors: [{ path: '(root)', message: 'Expected no body' }],
      })
      expect(problem.detail).toContain('takes no request body')
    }
    // A JSON scalar is no body the API reads at all: refused by the parser, as anywhere else.
    const scalar = await app.fetch(path, {
      method,
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: '"x"',
    })
    expect(scalar.status).toBe(400)
  }
  expectSameState(await snapshotState(app.db), before, 'bodies refused')
})

test('no body, or an empty JSON object, is none: the operation goes on', async () => {
  const user = await createTestAccount(app.db)
  for (const body of [undefined, '{}']) {
    const response = await app.fetch('/api/keys/sx_nope', {
      method: 'DELETE',
      headers: { ...user.auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body,
    })
    expect(response.status).toBe(404)
  }
  const rotated = await app.fetch('/api/webhooks/secret/rotate', { method: 'POST', headers: user.auth })
  expect(rotated.status).toBe(200)
})
