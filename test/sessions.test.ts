import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm, sessionCookieFrom } from '#test/support/browser-session.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('the dashboard sends visitors without a session to log in, and back afterwards', async () => {
  const response = await app.fetch('/dashboard', { redirect: 'manual' })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/login?redirectTo=%2Fdashboard')
})

test('sign up makes the account and sends you to log in; the new account logs in to the dashboard', async () => {
  const email = `new-${Date.now()}@example.com`
  const response = await postForm(app.url, '/signup', { email, password: 'a long passphrase' })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/login?signup=done&redirectTo=%2Fdashboard')
  expect(response.headers.get('set-cookie')).toBeNull()
  const login = await app.fetch(response.headers.get('location') as string)
  expect(await login.text()).toContain('If that email was new, your account is ready')

  const signedIn = await postForm(app.url, '/login', { email, password: 'a long passphrase', redirectTo: '/dashboard' })
  expect(signedIn.status).toBe(302)
  const setCookie = signedIn.headers.get('set-cookie') ?? ''
  expect(setCookie).toMatch(/sx_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=/)
  expect(setCookie).not.toContain('Secure') // plain http on localhost
  const dashboard = await app.fetch('/dashboard', { headers: { Cookie: sessionCookieFrom(signedIn) as string } })
  expect(dashboard.status).toBe(200)
  expect(await dashboard.text()).toContain(email)
})

test('sign up explains bad fields next to them', async () => {
  const invalid = await postForm(app.url, '/signup', { email: 'not-an-email', password: 'short' })
  expect(invalid.status).toBe(400)
  const html = await invalid.text()
  expect(html).toContain('Enter a valid email address.')
  expect(html).toContain('Use at least 8 characters.')
  expect(html).toContain('aria-invalid="true"')
})

test('log in with the right password only, and to a local path only', async () => {
  const user = await createTestAccount(app.db)
  const wrong = await postForm(app.url, '/login', { email: user.email, password: 'wrong password' })
  expect(wrong.status).toBe(401)
  expect(await wrong.text()).toContain('do not match an account')
  const unknown = await postForm(app.url, '/login', { email: 'nobody@example.com', password: 'whatever1' })
  expect(unknown.status).toBe(401)

  const offsite = await postForm(app.url, '/login', {
    email: user.email,
    password: user.password,
    redirectTo: '//evil.example',
  })
  expect(offsite.status).toBe(302)
  expect(offsite.headers.get('location')).toBe('/dashboard')
})

test('log out ends the session: the old cookie no longer opens the dashboard', async () => {
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  expect((await app.fetch('/dashboard', { headers: { Cookie: cookie } })).status).toBe(200)
  const out = await postForm(app.url, '/logout', {}, cookie)
  expect(out.status).toBe(302)
  expect(out.headers.get('set-cookie')).toContain('sx_session=;')
  const after = await app.fetch('/dashboard', { headers: { Cookie: cookie }, redirect: 'manual' })
  expect(after.status).toBe(302)
})

test('a form post from another site, or with no Origin, is refused', async () => {
  const user = await createTestAccount(app.db)
  const forged = await app.fetch('/login', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
    body: new URLSearchParams({ email: user.email, password: user.password }),
  })
  expect(forged.status).toBe(403)
  expect(sessionCookieFrom(forged)).toBeUndefined()
  const noOrigin = await app.fetch('/logout', { method: 'POST', redirect: 'manual' })
  expect(noOrigin.status).toBe(403)
})
