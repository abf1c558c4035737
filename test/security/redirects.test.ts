// After logging in, Sextant sends the visitor to `redirectTo`: only ever a path of this site. Each
// target here once left the site (a browser drops the tab or newline and reads "//evil.test") or
// answered 500 (a Location header that is not valid).
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'

let app: TestApp
let email: string
let cookie: string
const PASSWORD = 'correct horse battery'

beforeAll(async () => {
  app = await startTestApp()
  email = (await createTestAccount(app.db, { password: PASSWORD })).email
  cookie = await logIn(app.url, email, PASSWORD)
})
afterAll(() => app.stop())

const HOSTILE_TARGETS = [
  '/\t/evil.test',
  '/\n/evil.test',
  '/\r\n/evil.test/x',
  '/\\evil.test',
  '/\\/evil.test',
  '//evil.test',
  '/ /evil.test',
  '/%09/evil.test',
  '/\u3002/x',
  '/\u0000/x',
  'https://evil.test/',
  'javascript:alert(1)',
]

/** Where a browser at our origin goes with this Location header. */
function destination(location: string | null): URL {
  expect(location).not.toBeNull()
  return new URL(location as string, app.url)
}

test('a logged-in visit to /login never redirects off the site, and never answers 500', async () => {
  for (const target of HOSTILE_TARGETS) {
    const response = await app.fetch(`/login?${new URLSearchParams({ redirectTo: target })}`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(response.status, JSON.stringify(target)).toBe(302)
    expect(destination(response.headers.get('location')).origin, JSON.stringify(target)).toBe(new URL(app.url).origin)
  }
})

test('logging in with a hostile redirectTo lands on this site', async () => {
  for (const target of HOSTILE_TARGETS.slice(0, 6)) {
    const response = await postForm(app.url, '/login', { email, password: PASSWORD, redirectTo: target })
    expect(response.status, JSON.stringify(target)).toBe(302)
    expect(destination(response.headers.get('location')).origin, JSON.stringify(target)).toBe(new URL(app.url).origin)
  }
})

test('a same-site path with a query and non-ASCII characters is kept, percent-encoded', async () => {
  const response = await app.fetch(`/login?${new URLSearchParams({ redirectTo: '/dashboard/topics?q=café' })}`, {
    headers: { Cookie: cookie },
    redirect: 'manual',
  })
  expect(response.headers.get('location')).toBe('/dashboard/topics?q=caf%C3%A9')
})

test('a page address too long to come back to sends the visitor to log in without it', async () => {
  const response = await app.fetch(`/dashboard/runs/${'%C3%A9'.repeat(2000)}`, { redirect: 'manual' })
  expect(response.status).toBe(302)
  expect(response.headers.get('location')).toBe('/login')
})
