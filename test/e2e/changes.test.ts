// What changed, in a real browser: after a second run on a web that changed (stub providers), the
// run page and the topic page show the updated claim as old -> new and the contradicted one with
// what memory held, each with its quote, read by their accessible names; the topic's history opens
// from the keyboard; and neither page scrolls sideways on a phone.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import {
  BROWSER_TEST_BUDGET_MS,
  collectPageErrors,
  hasChromium,
  horizontalOverflow,
  launchBrowser,
  openContext,
  screenshot,
  tabTo,
} from '#test/support/browser.ts'
import { logIn } from '#test/support/browser-session.ts'
import { AFTER, BEFORE, CHANGING_TOPIC, changingWeb } from '#test/support/changing-web.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'

let stubs: ProviderApp
let browser: Browser
const web = changingWeb()
beforeAll(async () => {
  if (!hasChromium) return
  stubs = await startProviderApp({ documents: web.documents })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await stubs?.stop()
})

const PHONE = { width: 375, height: 812 }
const WIDE = { width: 1280, height: 900 }

async function onPhone(page: Page, name: string) {
  await page.setViewportSize(PHONE)
  expect(await horizontalOverflow(page), `${name} scrolls sideways on a phone`).toBeLessThanOrEqual(0)
  await screenshot(page, `${name}-phone`)
  await page.setViewportSize(WIDE)
  await screenshot(page, `${name}-wide`)
}

test.skipIf(!hasChromium)(
  'the run and topic pages show what changed, old -> new, with quotes',
  async () => {
    const user = await createTestAccount(stubs.app.db)
    const { second } = await web.researchTwice(stubs.app, user)
    const context = await openContext(browser, { viewport: WIDE })
    const cookie = await logIn(stubs.app.url, user.email, user.password)
    const at = cookie.indexOf('=')
    await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: stubs.app.url }])
    const page = await context.newPage()
    const errors = collectPageErrors(page)

    await page.goto(`${stubs.app.url}/dashboard/runs/${second.runId}`)
    const delta = page.getByRole('region', { name: /^What changed since \d{4}-\d{2}-\d{2}$/ })
    await delta.waitFor()
    const updated = delta.getByRole('list', { name: 'Updated' }).getByRole('listitem')
    expect(await updated.count()).toBe(1)
    expect(await updated.locator('del').textContent()).toBe(BEFORE.price.text)
    expect(await updated.textContent()).toContain(`Was: ${BEFORE.price.text}`)
    expect(await updated.textContent()).toContain(`Now: ${AFTER.price.text}`)
    expect(await updated.locator('blockquote').textContent()).toContain(AFTER.price.text)
    // The citation takes the reader to the source, whose snippet is the same quote.
    const citation = updated.getByRole('link', { name: /^Source \d+$/ })
    const target = (await citation.getAttribute('href')) as string
    await tabTo(page, citation)
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`${target}$`))
    expect(await page.locator(`${target} blockquote`).textContent()).toContain(AFTER.price.text)
    const contradicted = delta.getByRole('list', { name: 'Contradicted' }).getByRole('listitem')
    expect(await contradicted.textContent()).toContain(`Previously: ${BEFORE.plant.text}`)
    expect(await delta.getByRole('list', { name: 'New' }).textContent()).toContain(AFTER.recycling.text)
    await delta.getByText('1 claim confirmed: memory already held it').waitFor()
    await page.getByText('4 claims, 4 shown.').waitFor()
    await onPhone(page, 'run-changes')

    await page.getByRole('link', { name: 'What memory holds on this topic' }).click()
    await page.getByRole('heading', { name: CHANGING_TOPIC, level: 1 }).waitFor()
    const added = page.getByRole('region', { name: 'What the latest run added' })
    await added.getByText('1 new, 1 updated and 1 contradicted; it confirmed 1 fact memory already held.').waitFor()
    expect(await added.locator('del').first().textContent()).toBe(BEFORE.price.text)
    // Replaced facts are history, behind a disclosure a keyboard opens.
    const history = page.getByRole('region', { name: /^History/ })
    const disclosure = history.getByText('What memory held before later runs updated or contradicted it')
    expect(await history.getByText(BEFORE.plant.text, { exact: true }).isVisible()).toBe(false)
    await tabTo(page, disclosure, 200)
    await page.keyboard.press('Enter')
    await history.getByText(BEFORE.plant.text, { exact: true }).waitFor()
    await onPhone(page, 'topic-changes')
    expect(errors).toEqual([])
    await context.close()
  },
  BROWSER_TEST_BUDGET_MS,
)
