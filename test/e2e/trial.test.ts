// The trial page in a real browser: a visitor with no account runs quick research and reads it.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import {
  axeFindings,
  BROWSER_TEST_BUDGET_MS,
  collectPageErrors,
  hasChromium,
  horizontalOverflow,
  launchBrowser,
  openContext,
  screenshot,
  tabTo,
} from '#test/support/browser.ts'

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
    const visitor = await openContext(browser, { viewport: { width: 1280, height: 900 } })
    const page = await visitor.newPage()
    const errors = collectPageErrors(page)
    await page.goto(app.url)
    await screenshot(page, 'home')
    await page.getByRole('link', { name: 'Try it without an account' }).click()
    await page.waitForURL(/\/trial$/)
    await screenshot(page, 'trial-empty')
    await page.getByLabel('Topic').fill('heat pumps in cold climates')
    await page.getByRole('button', { name: /start a quick run/i }).click()
    await page.waitForURL(/\/trial\?run=/)
    await page
      .getByRole('heading', { name: /sources/i })
      .first()
      .waitFor()
    // A screen reader heard the run end: the progress has a live region, which says so last.
    const live = page.locator('#trial-progress-heading ~ p[aria-live="polite"]')
    expect(await live.count()).toBe(1)
    expect(await live.textContent()).toBe('Run complete. The report is below.')
    expect(await axeFindings(page)).toEqual([])
    // The sample corpus is invented, and the page says so before the report; its sources open here.
    await page.getByText('Not the web.').waitFor()
    expect(await page.locator('a[href*="corpus.local"]').count()).toBe(0)
    const sources = page.locator('a[href^="/corpus/"]')
    expect(await sources.count()).toBeGreaterThan(0)
    await screenshot(page, 'trial-report')
    const [article] = await Promise.all([visitor.waitForEvent('page'), sources.first().click()])
    await article.getByText('Invented sample article.').waitFor()
    await screenshot(article, 'corpus-article')
    await article.close()
    expect(errors).toEqual([])

    // Another visitor (another cookie) opening the same run link sees nothing of it.
    const runUrl = page.url()
    const stranger = await (await openContext(browser)).newPage()
    await stranger.goto(runUrl)
    expect(await stranger.locator('a[href^="/corpus/"]').count()).toBe(0)

    // On a phone.
    await page.setViewportSize({ width: 375, height: 812 })
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'trial-report-phone')
  },
  BROWSER_TEST_BUDGET_MS,
)

test.skipIf(!hasChromium)(
  'with the keyboard alone, a visitor runs to the daily limit and is told when it resets',
  async () => {
    // A fresh app: the limit counts this address's trial runs for the day.
    const limited = await startTestApp({ env: { RATE_LIMIT_DEMO_PER_DAY: '3', RATE_LIMIT_RUNS_PER_HOUR: '100' } })
    try {
      const page = await (await openContext(browser, { viewport: { width: 1280, height: 900 } })).newPage()
      const errors = collectPageErrors(page)
      await page.goto(`${limited.url}/trial`)
      for (let run = 1; run <= 4; run++) {
        await tabTo(page, page.getByRole('textbox', { name: 'Topic' }))
        await page.keyboard.press('ControlOrMeta+A')
        await page.keyboard.type(`trial topic number ${run}`)
        await page.keyboard.press('Enter')
        if (run <= 3) {
          await page.waitForURL(/\/trial\?run=/)
          await page.getByRole('link', { name: `trial topic number ${run}` }).waitFor()
        }
      }
      const alert = page.getByRole('alert').filter({ hasText: 'The trial limit is reached.' })
      await alert.waitFor()
      expect(await alert.textContent()).toMatch(
        /used today's 3 trial runs .* another in \d+ hours?.*, at \d\d:\d\d UTC/,
      )
      await screenshot(page, 'trial-limit')
      await page.setViewportSize({ width: 375, height: 812 })
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
      await screenshot(page, 'trial-limit-phone')
      const runs = await limited.db.selectFrom('runs').select('id').where('source', '=', 'trial').execute()
      expect(runs).toHaveLength(3)
      expect(errors.filter((error) => !/status of 429/.test(error))).toEqual([])
    } finally {
      await limited.stop()
    }
  },
  BROWSER_TEST_BUDGET_MS,
)

test.skipIf(!hasChromium)(
  'the axe check the pages pass is one that finds what is wrong',
  async () => {
    const page = await (await openContext(browser)).newPage()
    await page.setContent('<html lang="en"><title>t</title><main><img src="data:,"><button></button></main></html>')
    const findings = await axeFindings(page)
    expect(findings.some((finding) => finding.startsWith('image-alt:'))).toBe(true)
    expect(findings.some((finding) => finding.startsWith('button-name:'))).toBe(true)
  },
  BROWSER_TEST_BUDGET_MS,
)
