// The dashboard in a real browser, as a new user meets it: sign up, create a key, start a brief
// and watch it run live to the report, run it again and read the delta, see a run started through
// the API appear without a reload, and manage a recurring brief with the keyboard alone.
//
// The web process has no worker at first, so the run page is open before the run takes a single
// step; a worker process started afterwards on the same database then moves it along, and what
// the page shows can only have arrived over its event stream.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { indexCorpusDirectory } from '#server/providers/search/corpus.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import {
  axeFindings,
  BROWSER_TEST_BUDGET_MS,
  collectPageErrors,
  hasChromium,
  horizontalOverflow,
  launchBrowser,
  openContext,
  SHOWN_WITHIN_MS,
  screenshot,
  tabTo,
} from '#test/support/browser.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

let web: TestApp
let worker: TestApp | undefined
let browser: Browser
beforeAll(async () => {
  if (!hasChromium) return
  web = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '100' } })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await worker?.stop()
  await web?.stop()
})

async function startWorker() {
  worker ??= await startTestApp({ databaseUrl: web.databaseUrl, env: { RUN_ROLE: 'worker' } })
}

/** Adds a document to the local search corpus, as if it had just been published on the web. */
async function publishToCorpus(file: string, content: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-news-'))
  fs.writeFileSync(path.join(dir, file), content)
  const { indexed } = await indexCorpusDirectory(web.db, dir)
  fs.rmSync(dir, { recursive: true })
  expect(indexed).toBe(1)
}

async function markPage(page: Page) {
  await page.evaluate(() => {
    ;(window as unknown as { notReloaded: boolean }).notReloaded = true
  })
}

async function stillSamePage(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true)
}

test.skipIf(!hasChromium)(
  'sign up, create a key, watch a brief run live to its report, run it again for the delta',
  async () => {
    const page = await (await openContext(browser, { viewport: { width: 1280, height: 900 } })).newPage()
    const errors = collectPageErrors(page)
    const email = `e2e-${Date.now()}@example.com`

    await page.goto(`${web.url}/signup`)
    await screenshot(page, 'signup')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('a long e2e passphrase')
    await page.getByRole('button', { name: 'Sign up' }).click()
    // Sign-up answers the same whether or not the email was taken: it sends you to log in.
    await page.waitForURL(/\/login\?signup=done/)
    await page.getByText('If that email was new, your account is ready').waitFor()
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('a long e2e passphrase')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/dashboard$/)
    await page.getByRole('heading', { name: 'New research brief' }).waitFor()
    await screenshot(page, 'dashboard-empty')

    await page.getByRole('link', { name: 'API keys' }).click()
    await page.getByLabel('Name').fill('e2e')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = (await page.getByTestId('new-key').textContent())?.trim() as string
    expect(key).toMatch(/^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/)
    await screenshot(page, 'api-keys')

    // A brief with a missing topic is explained next to the field.
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await page.getByRole('button', { name: 'Start research' }).click()
    await page.locator('[name="topic"][aria-invalid="true"]').waitFor()
    expect(page.url()).toMatch(/\/dashboard$/)

    await page.getByLabel('Topic').fill('sodium-ion batteries')
    await page.getByLabel('Timeframe').selectOption('all')
    await page.getByRole('radio', { name: /quick/i }).check()
    await page.getByRole('button', { name: 'Start research' }).click()
    await page.waitForURL(/\/dashboard\/runs\//)
    await page.getByRole('button', { name: 'Cancel run' }).waitFor()
    await markPage(page)
    await screenshot(page, 'run-waiting')
    expect(await page.getByRole('heading', { name: 'Sources', exact: true }).count()).toBe(0)

    // Now a worker takes the run; steps and then the report arrive on the open page.
    await startWorker()
    await page.getByText('Plan queries').waitFor()
    await page.getByRole('heading', { name: 'Sources', exact: true }).waitFor()
    expect(await stillSamePage(page)).toBe(true)
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0)
    await page.getByRole('heading', { name: 'Baseline' }).waitFor()
    expect(await page.locator('a[href^="/corpus/"]').count()).toBeGreaterThan(0)
    // Every [n] citation in the report links to a listed source.
    const citations = await page
      .locator('a[href^="#source-"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
    expect(citations.length).toBeGreaterThan(0)
    for (const href of citations) expect(await page.locator(`[id="${href?.slice(1)}"]`).count()).toBe(1)
    await screenshot(page, 'run-report')
    await page.getByRole('link', { name: 'What memory holds on this topic' }).click()
    await page.getByRole('heading', { name: 'sodium-ion batteries', level: 1 }).waitFor()

    // News arrives after the first run; the same topic again reports it as what changed.
    await publishToCorpus(
      'sodium-ion-recycling.md',
      [
        '---',
        'title: First sodium-ion recycling plant opens',
        'url: https://corpus.local/batteries/sodium-ion-recycling',
        `published: ${new Date().toISOString().slice(0, 10)}`,
        '---',
        '',
        'The first plant built to recycle sodium-ion batteries opened this week, recovering hard carbon and',
        'sodium salts from used cells at a cost its operator puts at a third of lithium-ion recycling.',
      ].join('\n'),
    )
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await page.getByLabel('Topic').fill('Sodium-ion batteries')
    await page.getByLabel('Timeframe').selectOption('all')
    await page.getByRole('radio', { name: /quick/i }).check()
    await page.getByRole('button', { name: 'Start research' }).click()
    await page.waitForURL(/\/dashboard\/runs\//)
    await page.getByRole('heading', { name: /^What changed since / }).waitFor()
    const delta = page.getByRole('region', { name: /^What changed since / })
    await delta
      .getByText(/recycl/i)
      .first()
      .waitFor()
    // Each new finding stands over the words of the page that support it.
    await delta
      .locator('blockquote')
      .getByText(/recycl/i)
      .first()
      .waitFor()
    await screenshot(page, 'run-delta')
    await page.setViewportSize({ width: 375, height: 812 })
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'run-delta-phone')
    await page.setViewportSize({ width: 1280, height: 900 })

    // A run started elsewhere, with the key made above, appears on the open dashboard.
    await page.getByRole('link', { name: 'Dashboard' }).click()
    await page.getByRole('link', { name: 'Sodium-ion batteries', exact: true }).waitFor()
    await markPage(page)
    const auth = { Authorization: `Bearer ${key}` }
    const started = await postBrief(web.fetch, auth, { topic: 'started by curl', depth: 'quick' })
    expect(started.response.status).toBe(202)
    await page.getByRole('link', { name: 'started by curl' }).waitFor()
    await waitForRun(web.fetch, auth, started.body.runId, SHOWN_WITHIN_MS)
    await page
      .getByRole('row', { name: /started by curl/ })
      .getByText('Complete')
      .waitFor()
    // A screen reader heard it too: the list's live region says what changed (the run appeared, or
    // appeared and then ended, as the list was redrawn).
    await page.waitForFunction(() =>
      /started by curl(: |, )complete\./.test(
        document.querySelector('[data-testid="run-list-changes"][aria-live="polite"]')?.textContent ?? '',
      ),
    )
    expect(await stillSamePage(page)).toBe(true)
    await screenshot(page, 'dashboard-runs')

    await page.setViewportSize({ width: 375, height: 812 })
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'dashboard-phone')
    await page.setViewportSize({ width: 1440, height: 900 })
    await screenshot(page, 'dashboard-wide')
    expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([])
  },
  BROWSER_TEST_BUDGET_MS,
)

test.skipIf(!hasChromium)(
  'a brief started and a recurring brief paused with the keyboard alone',
  async () => {
    await startWorker()
    const user = await createTestAccount(web.db)
    const page = await (
      await openContext(browser, { viewport: { width: 1280, height: 900 }, timezoneId: 'Europe/Berlin' })
    ).newPage()
    const errors = collectPageErrors(page)
    await page.goto(`${web.url}/login`)
    await tabTo(page, page.getByLabel('Email'))
    await page.keyboard.type(user.email)
    await page.keyboard.press('Tab')
    await page.keyboard.type(user.password)
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dashboard$/)
    await page.getByRole('heading', { name: 'New research brief' }).waitFor()

    // The first Tab offers to skip the navigation; taking it lands on the brief form.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await page.getByLabel('Topic').evaluate((element) => element === document.activeElement)).toBe(true)
    // Sent without a topic, the brief comes back with its error, and focus is on the field to fix: a
    // screen reader says the field and its error together, not nothing from the button.
    await tabTo(page, page.getByRole('button', { name: 'Start research' }))
    await page.keyboard.press('Enter')
    const topic = page.getByLabel('Topic')
    await page.locator('[name="topic"][aria-invalid="true"]').waitFor()
    expect(await topic.evaluate((element) => element === document.activeElement)).toBe(true)
    const described = (await topic.getAttribute('aria-describedby')) ?? ''
    expect(described).not.toBe('')
    const said = await Promise.all(described.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()))
    expect(said.join(' ')).toContain('Enter a topic.')
    expect(await axeFindings(page)).toEqual([])
    // The refused form's 400 is the browser's only complaint so far.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
    errors.length = 0
    await page.keyboard.type('keyboard grid storage')
    await tabTo(page, page.getByLabel('Run again on a schedule'))
    await page.keyboard.press('Space')
    // Ticked, the schedule shows; its time zone is the browser's own (the context's, below).
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin')
    await page.getByLabel('How often').selectOption('6h')
    await tabTo(page, page.getByRole('button', { name: 'Start research' }))
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dashboard\/runs\//)
    // The run it started has focus: its heading is what a screen reader says next.
    await page.waitForFunction(() => document.activeElement?.id === 'run-heading')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('keyboard grid storage')
    expect(await axeFindings(page)).toEqual([])
    await page.getByRole('heading', { name: 'Sources', exact: true }).waitFor()

    await tabTo(page, page.getByRole('link', { name: 'Manage this recurring brief' }))
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/dashboard\/series/)
    await page.getByText(/next run/).waitFor()
    await page.getByText('runs every 6 hours').waitFor()
    await screenshot(page, 'series')
    await tabTo(page, page.getByRole('button', { name: 'Pause: keyboard grid storage', exact: true }))
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Resume: keyboard grid storage', exact: true }).waitFor()
    // What the pause did is said where focus is, not at the top of the page.
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'status')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Paused: no runs start until you resume it.',
    )
    expect(await axeFindings(page)).toEqual([])
    await screenshot(page, 'series-paused')
    await page.setViewportSize({ width: 375, height: 812 })
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'series-phone')
    expect(errors).toEqual([])
  },
  BROWSER_TEST_BUDGET_MS,
)

test.skipIf(!hasChromium)(
  'API keys: a revoked key stops working',
  async () => {
    const user = await createTestAccount(web.db)
    const page = await (await openContext(browser, { viewport: { width: 1280, height: 900 } })).newPage()
    const errors = collectPageErrors(page)
    await page.goto(`${web.url}/login?redirectTo=%2Fdashboard%2Fkeys`)
    await screenshot(page, 'login')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/dashboard\/keys$/)

    await page.getByLabel('Name').fill('laptop')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = (await page.getByTestId('new-key').textContent())?.trim() as string
    // Focus is on the new key's heading, not back at the top of the page with nothing said.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('new-key-heading')
    expect(await axeFindings(page)).toEqual([])
    expect((await web.fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)

    // Shown once: after a reload the list names the key by its prefix only.
    await page.goto(`${web.url}/dashboard/keys`)
    expect(await page.getByTestId('new-key').count()).toBe(0)
    expect(await page.content()).not.toContain(key)

    await page.getByRole('button', { name: 'Revoke laptop' }).click()
    await page
      .getByText(/revoked/i)
      .first()
      .waitFor()
    expect((await web.fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401)
    await page.setViewportSize({ width: 375, height: 812 })
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'api-keys-phone')
    expect(errors).toEqual([])
  },
  BROWSER_TEST_BUDGET_MS,
)
