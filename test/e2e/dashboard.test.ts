// The dashboard in a real browser: log in, start a brief, watch it live, read the report; a run
// started through the API appears on the open dashboard without a reload.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { collectPageErrors, hasChromium, launchBrowser, screenshot } from '#test/support/browser.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
let browser: Browser
beforeAll(async () => {
  if (!hasChromium) return
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '100' } })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

test.skipIf(!hasChromium)('log in, start a brief, watch it to the report; an API run appears live', async () => {
  const user = await createTestAccount(app.db)
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors = collectPageErrors(page)

  await page.goto(`${app.url}/dashboard`)
  await page.waitForURL(/\/login/)
  await screenshot(page, 'login')
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/dashboard$/)
  await screenshot(page, 'dashboard-empty')

  // A brief with a missing topic is explained next to the field.
  await page.getByRole('button', { name: 'Start research' }).click()
  await page.locator('[name="topic"][aria-invalid="true"]').waitFor({ timeout: 10_000 })
  expect(page.url()).toMatch(/\/dashboard$/)

  await page.getByLabel('Topic').fill('sodium-ion batteries')
  await page.getByLabel('Timeframe').selectOption('all')
  await page.getByRole('radio', { name: /quick/i }).check()
  await page.getByRole('button', { name: 'Start research' }).click()
  await page.waitForURL(/\/dashboard\/runs\//)
  await page.getByRole('heading', { name: 'Sources', exact: true }).waitFor({ timeout: 30_000 })
  expect(await page.locator('a[href^="https://corpus.local/"]').count()).toBeGreaterThan(0)
  // Every [n] citation in the report links to a listed source.
  const citations = await page
    .locator('a[href^="#source-"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  expect(citations.length).toBeGreaterThan(0)
  for (const href of citations) expect(await page.locator(`[id="${href?.slice(1)}"]`).count()).toBe(1)
  await screenshot(page, 'run-report')

  // A run started elsewhere (the API) appears on the open dashboard without a reload.
  await page.goto(`${app.url}/dashboard`)
  await screenshot(page, 'dashboard-runs')
  await postBrief(app.fetch, user.auth, { topic: 'started by curl', depth: 'quick' })
  await page.getByRole('link', { name: 'started by curl' }).waitFor({ timeout: 10_000 })

  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'dashboard-phone')
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([])
})

test.skipIf(!hasChromium)('API keys: a created key is shown once and works; a revoked one stops working', async () => {
  const user = await createTestAccount(app.db)
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors = collectPageErrors(page)
  await page.goto(`${app.url}/login?redirectTo=%2Fdashboard%2Fkeys`)
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/dashboard\/keys$/)

  await page.getByLabel('Name').fill('laptop')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = (await page.getByTestId('new-key').textContent())?.trim() as string
  expect(key).toMatch(/^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/)
  await screenshot(page, 'api-keys')
  expect((await app.fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)

  // Shown once: after a reload the list names the key by its prefix only.
  await page.goto(`${app.url}/dashboard/keys`)
  expect(await page.getByTestId('new-key').count()).toBe(0)
  expect(await page.content()).not.toContain(key)

  await page.getByRole('button', { name: 'Revoke laptop' }).click()
  await page
    .getByText(/revoked/i)
    .first()
    .waitFor()
  expect((await app.fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401)
  expect(errors).toEqual([])
})
