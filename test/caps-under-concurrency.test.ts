// Caps counted and inserted in one transaction under the account's row lock: a burst of concurrent
// requests cannot slip past them (issue 41, item 4: 60 simultaneous adds once left 15 addresses
// against a cap of 10).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MAX_ADDRESSES_PER_ACCOUNT } from '#server/notify/contract.ts'
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#server/notify/webhooks/endpoints.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { type StubSmtp, startStubSmtp } from '#test/support/stub-smtp.ts'

let app: TestApp
let smtp: StubSmtp
beforeAll(async () => {
  smtp = await startStubSmtp()
  app = await startTestApp({
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Sextant <digests@sextant.test>',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1:9',
    },
  })
})
afterAll(async () => {
  await app?.stop()
  await smtp?.close()
})

const BURST = 40

function post(path: string, auth: Record<string, string>, body: unknown) {
  return app.fetch(path, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

test(`${BURST} simultaneous email addresses leave exactly the cap, and the rest are told why`, async () => {
  const user = await createTestAccount(app.db)
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => post('/api/email/addresses', user.auth, { address: `r${i}@example.com` })),
  )
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 202)).toHaveLength(MAX_ADDRESSES_PER_ACCOUNT)
  expect(statuses.filter((status) => status !== 202).every((status) => status >= 400 && status < 500)).toBe(true)
  const list = (await (await app.fetch('/api/email/addresses', { headers: user.auth })).json()) as {
    addresses: unknown[]
  }
  expect(list.addresses).toHaveLength(MAX_ADDRESSES_PER_ACCOUNT)
})

test(`${BURST} simultaneous webhook endpoints leave exactly the cap`, async () => {
  const user = await createTestAccount(app.db)
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      post('/api/webhooks/endpoints', user.auth, { url: `http://127.0.0.1:9/hook/${i}`, events: ['run.completed'] }),
    ),
  )
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT)
  expect(statuses.filter((status) => status !== 201).every((status) => status >= 400 && status < 500)).toBe(true)
  const list = (await (await app.fetch('/api/webhooks/endpoints', { headers: user.auth })).json()) as {
    endpoints: unknown[]
  }
  expect(list.endpoints).toHaveLength(MAX_ENDPOINTS_PER_ACCOUNT)
})

test(`${BURST} simultaneous API keys leave exactly the cap (API_KEYS_PER_ACCOUNT, 20 by default)`, async () => {
  const user = await createTestAccount(app.db)
  // The account's own key counts as one of its active keys.
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => post('/api/keys', user.auth, { name: `k${i}` })),
  )
  const created = answers.filter((answer) => answer.status === 201).length
  const keys = (await (await app.fetch('/api/keys', { headers: user.auth })).json()) as {
    keys: Array<{ revokedAt: string | null }>
  }
  expect(keys.keys.filter((key) => key.revokedAt === null)).toHaveLength(20)
  expect(created).toBe(20 - 1)
})
