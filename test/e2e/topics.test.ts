// The topic pages in a real browser: list → search → detail → export → compare, partly by keyboard
// alone, each page photographed on a phone and a wide screen, and none scrolling sideways on the phone.
import fs from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import {
  BROWSER_TEST_BUDGET_MS,
  collectPageErrors,
  hasChromium,
  launchBrowser,
  openContext,
  SHOWN_WITHIN_MS,
  screenshot,
  tabTo,
} from '#test/support/browser.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

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

const PHONE = { width: 375, height: 812 }
const WIDE = { width: 1440, height: 900 }

/** Screenshots at both sizes; on the phone nothing may stick out sideways (long URLs must wrap). */
async function photograph(page: Page, name: string) {
  await page.setViewportSize(PHONE)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow, `${name} scrolls sideways on a phone`).toBeLessThanOrEqual(0)
  await screenshot(page, `${name}-phone`)
  await page.setViewportSize(WIDE)
  await screenshot(page, `${name}-wide`)
}

test.skipIf(!hasChromium)(
  'topics: list, search, detail, export and compare, with the keyboard too',
  async () => {
    const user = await createTestAccount(app.db)
    for (const topic of ['Sodium-ion batteries', 'solid-state batteries']) {
      const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick', timeframe: 'all' })
      expect((await waitForRun(app.fetch, user.auth, body.runId, SHOWN_WITHIN_MS)).status).toBe('complete')
    }
    const context = await openContext(browser, { viewport: WIDE, acceptDownloads: true })
    const page = await context.newPage()
    const errors = collectPageErrors(page)

    await page.goto(`${app.url}/dashboard/topics`)
    await page.waitForURL(/\/login/)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/dashboard\/topics$/)
    await page.getByRole('heading', { name: 'Topics', level: 1 }).waitFor()
    expect(await page.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'solid-state batteries',
      'Sodium-ion batteries',
    ])
    await photograph(page, 'topics-list')

    // Keyboard only: Tab to the search box, type, Enter.
    const search = page.getByRole('searchbox', { name: 'Search facts in all your topics' })
    await tabTo(page, search)
    // The focused control shows it: an outline, not just a caret.
    expect(await search.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none')
    await page.keyboard.type('temperatures')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\?q=temperatures$/)
    await page.getByRole('heading', { name: /match(es)? “temperatures”/ }).waitFor()
    expect((await page.locator('mark').first().textContent())?.toLowerCase()).toBe('temperatures')
    await photograph(page, 'topics-search')

    // Keyboard only again: Tab to the topic and open it with Enter.
    const topicLink = page.getByRole('heading', { level: 3 }).getByRole('link', { name: 'Sodium-ion batteries' })
    await page.locator('body').focus()
    await tabTo(page, topicLink)
    expect(await topicLink.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dashboard\/topics\/[0-9a-f-]{36}$/)
    await page.getByRole('heading', { name: 'Sodium-ion batteries', level: 1 }).waitFor()
    for (const heading of ['What the latest run added', 'Run history']) {
      await page.getByRole('heading', { name: heading }).waitFor()
    }
    expect(await page.locator('a[href^="/corpus/"]').count()).toBeGreaterThan(0)
    expect(await page.locator('a[href^="/dashboard/runs/"]').count()).toBeGreaterThan(0)
    await photograph(page, 'topic-detail')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export as Markdown' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('sodium-ion-batteries.md')
    const markdown = fs.readFileSync(await download.path(), 'utf8')
    expect(markdown).toMatch(/^# Sodium-ion batteries\n/)
    expect(markdown).toContain('## Sources')

    // Researching again starts a run with the same brief; afterwards the topic lists both runs.
    const topicUrl = page.url()
    await page.getByRole('button', { name: 'Research this again' }).click()
    await page.waitForURL(/\/dashboard\/runs\//)
    await page.getByRole('heading', { name: 'Sources', exact: true }).waitFor()
    await page.goto(topicUrl)
    await page.getByRole('heading', { name: 'Run history' }).waitFor()
    expect(
      await page
        .getByRole('list')
        .filter({ has: page.getByText('Complete') })
        .getByRole('listitem')
        .count(),
    ).toBe(2)
    await page.getByText(/added \d+ facts? and \d+ sources?\.$/).waitFor()
    await photograph(page, 'topic-detail-second-run')

    await page.getByRole('link', { name: '← All topics' }).click()
    await page.waitForURL(/\/dashboard\/topics$/)
    await page.getByLabel('First topic').selectOption({ label: 'Sodium-ion batteries' })
    await page.getByLabel('Second topic').selectOption({ label: 'solid-state batteries' })
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.waitForURL(/\/dashboard\/topics\/compare\?a=[0-9a-f-]{36}&b=[0-9a-f-]{36}$/)
    await page.getByRole('table', { name: /facts and sources each topic holds/i }).waitFor()
    await page.getByRole('heading', { name: 'Only in “solid-state batteries”' }).waitFor()
    await photograph(page, 'topics-compare')

    // A bad choice is explained next to the form.
    await page.getByLabel('Second topic').selectOption({ label: 'Sodium-ion batteries' })
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.getByRole('alert').filter({ hasText: 'Choose two different topics.' }).waitFor()

    await page.goto(`${app.url}/dashboard/topics/00000000-0000-4000-8000-000000000000`)
    await page.getByRole('heading', { name: 'Topic not found' }).waitFor()
    await photograph(page, 'topic-not-found')

    // The 400 and 404 answers above are logged by the browser as failed loads; nothing else may be.
    expect(errors.filter((error) => !/status of (400|404)/.test(error))).toEqual([])
  },
  BROWSER_TEST_BUDGET_MS,
)

test.skipIf(!hasChromium)(
  'an account without topics is told how to get one',
  async () => {
    const user = await createTestAccount(app.db)
    const page = await (await openContext(browser, { viewport: WIDE })).newPage()
    await page.goto(`${app.url}/login?redirectTo=%2Fdashboard%2Ftopics`)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/dashboard\/topics$/)
    await page.getByRole('heading', { name: 'No topics yet' }).waitFor()
    await photograph(page, 'topics-empty')
    await page.getByRole('link', { name: 'Start a research run on the dashboard' }).click()
    await page.waitForURL(/\/dashboard$/)
  },
  BROWSER_TEST_BUDGET_MS,
)
