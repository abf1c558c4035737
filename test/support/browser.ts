// Debian's Chromium driven by playwright-core (a browser download is not possible here: see stack.md).
// Screenshots land in test-results/screenshots for a person to review after the run.
import fs from 'node:fs'
import path from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core'
import { projectRoot } from '#server/http/app-build.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const hasChromium = fs.existsSync(CHROMIUM)
const SCREENSHOTS = path.join(projectRoot, 'test-results', 'screenshots')

/**
 * A budget, not a clock, for a test that drives Chromium: most of them watch a whole research run,
 * which beside other CPU-bound work on two cores took longer than the integration tests' 30 s
 * (issue 41, item 2). A test that hangs still fails.
 */
export const BROWSER_TEST_BUDGET_MS = 240_000
/** How long a page may take to show a run's progress or a server's answer: the same kind of budget. */
export const SHOWN_WITHIN_MS = 120_000

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  })
}

/** A browser context whose waits (for a URL, an element, a condition) all have the budget above. */
export async function openContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options)
  context.setDefaultTimeout(SHOWN_WITHIN_MS)
  return context
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true })
  // caret: 'initial' — hiding the caret injects a style that, before hydration, React reports as a mismatch.
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, caret: 'initial' })
}

/** Fails the test on any console error or CSP violation the page reports. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  return errors
}

/** A page that reads well on a phone scrolls only vertically. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}

/** Presses Tab until `target` has focus, as a keyboard-only user would; fails after `limit` presses. */
export async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 40): Promise<void> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((element) => element === document.activeElement)) return
  }
  throw new Error(`focus never reached the element after ${limit} presses of Tab`)
}

/**
 * axe-core's findings on the page as it is now (WCAG 2.1 A and AA rules, and axe's best practices),
 * each as "rule: what it found (where)": an empty list when it finds nothing.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${violation.help} (${node.target.join(' ')})`),
  )
}
