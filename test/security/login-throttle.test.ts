// Password guessing on the login page is throttled per address and per account, and checked before
// the password is; a login that succeeds does not count. Sign-up answers the same whether or not an
// email already has an account, and leaves that account as it was.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { sessionCookieFrom } from '#test/support/browser-session.ts'

const FAILURES_PER_HOUR = 10

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: { RUN_ROLE: 'web', TRUST_PROXY: '1', RATE_LIMIT_LOGIN_FAILURES_PER_HOUR: String(FAILURES_PER_HOUR) },
  })
})
afterAll(() => app.stop())

function post(path: string, address: string, fields: Record<string, string>) {
  return app.fetch(path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(app.url).origin,
      'X-Forwarded-For': address,
    },
    body: new URLSearchParams(fields),
  })
}

const logIn = (address: string, email: string, password: string) => post('/login', address, { email, password })

test('400 concurrent guesses from one address: at most the hourly allowance is checked, the rest are 429', async () => {
  const user = await createTestAccount(app.db)
  const statuses = await Promise.all(
    Array.from({ length: 400 }, async (_, i) => {
      const response = await logIn('198.51.100.1', user.email, `guess-${i}`)
      await response.arrayBuffer()
      return response.status
    }),
  )
  expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(FAILURES_PER_HOUR)
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(400 - FAILURES_PER_HOUR)
  expect(new Set(statuses)).toEqual(new Set([401, 429]))
})

test('per address: after the allowance of failures, even a right password from that address waits', async () => {
  const user = await createTestAccount(app.db)
  for (let i = 0; i < FAILURES_PER_HOUR; i++) {
    expect((await logIn('198.51.100.2', `nobody-${i}@example.com`, 'wrong')).status).toBe(401)
  }
  const refused = await logIn('198.51.100.2', user.email, user.password)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  const page = await refused.text()
  expect(page).toContain('failed sign-ins from this address in the last hour. Try again in')
  expect(sessionCookieFrom(refused)).toBeUndefined()
  // Another address logs in.
  expect((await logIn('198.51.100.3', user.email, user.password)).status).toBe(302)
})

test('per account: failures from many addresses add up for the email, known or not', async () => {
  const user = await createTestAccount(app.db)
  for (const email of [user.email, 'nobody-at-all@example.com']) {
    for (let i = 0; i < FAILURES_PER_HOUR; i++)
      expect((await logIn(`203.0.113.${i + 1}`, email, 'wrong')).status).toBe(401)
    const refused = await logIn('203.0.113.200', email, 'still wrong')
    expect(refused.status).toBe(429)
    expect(await refused.text()).toContain('failed logins for this email in the last hour')
  }
  // The throttle refuses before checking the password, so even the right one waits.
  expect((await logIn('203.0.113.201', user.email, user.password)).status).toBe(429)
  // Other accounts are not affected.
  const other = await createTestAccount(app.db)
  expect((await logIn('203.0.113.201', other.email, other.password)).status).toBe(302)
})

test('a successful login does not count against the allowance', async () => {
  const user = await createTestAccount(app.db)
  for (let i = 0; i < FAILURES_PER_HOUR * 2; i++) {
    expect((await logIn('198.51.100.4', user.email, user.password)).status).toBe(302)
  }
})

test('sign-up answers the same whether or not the email has an account, and the account is unharmed', async () => {
  const existing = await createTestAccount(app.db)
  const fresh = `fresh-${Date.now()}@example.com`
  const taken = await post('/signup', '198.51.100.5', { email: existing.email, password: 'an attacker password' })
  const made = await post('/signup', '198.51.100.5', { email: fresh, password: 'a new passphrase' })
  for (const response of [taken, made]) {
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/login?signup=done&redirectTo=%2Fdashboard')
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.text()).toBe('')
  }
  // The new account works; the existing one kept its password.
  expect((await logIn('198.51.100.6', fresh, 'a new passphrase')).status).toBe(302)
  expect((await logIn('198.51.100.6', existing.email, existing.password)).status).toBe(302)
  expect((await logIn('198.51.100.6', existing.email, 'an attacker password')).status).toBe(401)
})
