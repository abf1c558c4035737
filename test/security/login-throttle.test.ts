// Password guessing on the login page is throttled per address and per account, and checked before
// the password is; a login that succeeds does not count. A device that logged in before counts its
// own failures, so nobody else's guesses lock its owner out. Sign-up answers the same whether or not an
// email already has an account, and leaves that account as it was.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { BURST_TEST_BUDGET_MS, startTestApp, type TestApp } from '#test/support/app.ts'
import { sessionCookieFrom } from '#test/support/browser-session.ts'

const FAILURES_PER_HOUR = 10

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({
    env: { RUN_ROLE: 'web', TRUST_PROXY: '1', RATE_LIMIT_LOGIN_FAILURES_PER_HOUR: String(FAILURES_PER_HOUR) },
  })
})
afterAll(() => app.stop())

function post(path: string, address: string, fields: Record<string, string>, cookie?: string) {
  return app.fetch(path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(app.url).origin,
      'X-Forwarded-For': address,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields),
  })
}

const logIn = (address: string, email: string, password: string, cookie?: string) =>
  post('/login', address, { email, password }, cookie)

/** The device cookie a login sets, as a browser sends it back, and its attributes. */
function deviceCookieFrom(response: Response): { cookie: string; attributes: string } | undefined {
  const set = response.headers.getSetCookie().find((cookie) => cookie.startsWith('sx_device='))
  return set ? { cookie: set.split(';')[0] as string, attributes: set } : undefined
}

test('400 concurrent guesses from one address: at most the hourly allowance is checked, the rest are 429', {
  timeout: BURST_TEST_BUDGET_MS,
}, async () => {
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

test('a device that logged in before keeps logging in while strangers exhaust the account and its address', async () => {
  const user = await createTestAccount(app.db)
  const first = await logIn('192.0.2.10', user.email, user.password)
  expect(first.status).toBe(302)
  const device = deviceCookieFrom(first)
  expect(device?.attributes).toMatch(/Path=\/login; Max-Age=\d+; HttpOnly; SameSite=Lax/)
  // Strangers fail for this email from many addresses, and others behind the owner's address (one
  // NAT) fail for other emails: the account's and the address's allowances are both used up.
  for (let i = 0; i < FAILURES_PER_HOUR; i++) {
    expect((await logIn(`192.0.2.${100 + i}`, user.email, 'wrong')).status).toBe(401)
    expect((await logIn('192.0.2.10', `neighbour-${i}@example.com`, 'wrong')).status).toBe(401)
  }
  expect((await logIn('192.0.2.99', user.email, user.password)).status).toBe(429)
  expect((await logIn('192.0.2.10', user.email, user.password)).status).toBe(429)
  // The owner's device is not locked out, from that address or another, and its cookie is renewed.
  const again = await logIn('192.0.2.10', user.email, user.password, device?.cookie)
  expect(again.status).toBe(302)
  expect(sessionCookieFrom(again)).toBeDefined()
  expect(deviceCookieFrom(again)?.cookie).toMatch(new RegExp(`^${device?.cookie.split('.')[0]}\\.`))
  expect((await logIn('198.18.0.1', user.email, user.password, device?.cookie)).status).toBe(302)
})

test("a known device's own failures are throttled as strictly; its cookie is worth nothing for another account", async () => {
  const user = await createTestAccount(app.db)
  const other = await createTestAccount(app.db)
  const device = deviceCookieFrom(await logIn('192.0.2.20', user.email, user.password))
  for (let i = 0; i < FAILURES_PER_HOUR; i++)
    expect((await logIn(`192.0.2.${30 + i}`, user.email, 'wrong', device?.cookie)).status).toBe(401)
  const refused = await logIn('192.0.2.50', user.email, user.password, device?.cookie)
  expect(refused.status).toBe(429)
  expect(await refused.text()).toContain('failed logins from this device in the last hour')
  // For another account the cookie is no device of it: the stranger's limits apply, and this
  // address has failures left.
  expect((await logIn('192.0.2.51', other.email, other.password, device?.cookie)).status).toBe(302)
  // A forged or garbled cookie is no device either, and no error.
  for (const forged of ['sx_device=AAAAAAAAAAAAAAAAAAAAAA.1.xyz', 'sx_device=%', `${device?.cookie}x`]) {
    const response = await logIn('192.0.2.52', other.email, 'wrong', forged)
    expect(response.status).toBe(401)
  }
})
