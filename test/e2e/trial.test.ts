// The trial page in a real browser: a visitor with no account runs quick research and reads it.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { collectPageErrors, hasChromium, launchBrowser, screenshot } from '#test/support/browser.ts'

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

test.skipIf(!hasChromium)(
  'a visitor starts a trial run, watches it live, reads the report; another visitor sees none of it',
  async () => {
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await visitor.newPage()
    const errors = collectPageErrors(page)
    await page.goto(`${app.url}/trial`)
    await screenshot(page, 'trial-empty')
    await page.getByLabel('Topic').fill('heat pumps in cold climates')
    await page.getByRole('button', { name: /start a quick run/i }).click()
    await page.waitForURL(/\/trial\?run=/)
    await page
      .getByRole('heading', { name: /sources/i })
      .first()
      .waitFor({ timeout: 30_000 })
    await expect(page.getByText(/corpus\.local/).first()).toBeTruthy()
    const sources = await page.locator('a[href^="https://corpus.local/"]').count()
    expect(sources).toBeGreaterThan(0)
    await screenshot(page, 'trial-report')
    expect(errors).toEqual([])

    // Another visitor (another cookie) opening the same run link sees nothing of it.
    const runUrl = page.url()
    const stranger = await (await browser.newContext()).newPage()
    await stranger.goto(runUrl)
    expect(await stranger.locator('a[href^="https://corpus.local/"]').count()).toBe(0)

    // On a phone.
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshot(page, 'trial-report-phone')
  },
)
