// The run page's cancel button and the recurring briefs page, driven as a browser posts forms; and
// what the run and trial pages show of a second run on a web that changed.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { logIn, postForm } from '#test/support/browser-session.ts'
import { AFTER, BEFORE, CHANGING_TOPIC, changingWeb } from '#test/support/changing-web.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
let stubs: ProviderApp
const web = changingWeb()
beforeAll(async () => {
  // No worker: runs stay running, so cancelling and pausing are not racing the run.
  app = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
  // Runs that do run, on stub providers whose web changes between two runs.
  stubs = await startProviderApp({ documents: web.documents, env: { RATE_LIMIT_DEMO_PER_DAY: '10' } })
})
afterAll(async () => {
  await app.stop()
  await stubs.stop()
})

async function signedIn() {
  const user = await createTestAccount(app.db)
  return { user, cookie: await logIn(app.url, user.email, user.password) }
}

async function page(path: string, cookie: string) {
  const response = await app.fetch(path, { headers: { Cookie: cookie } })
  return { status: response.status, html: await response.text() }
}

test('a running run shows a cancel button; pressing it cancels the run and records the event', async () => {
  const { user, cookie } = await signedIn()
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'cancel me from the page', depth: 'quick' })
  const before = await page(`/dashboard/runs/${body.runId}`, cookie)
  expect(before.html).toContain('Cancel run')
  // No worker has taken it: the page says it waits for one, not that it is researching.
  expect(before.html).toContain('Waiting for a worker')
  expect(before.html).not.toContain('Researching now')
  expect((await page('/dashboard', cookie)).html).toContain('Queued')

  const cancelled = await postForm(app.url, `/dashboard/runs/${body.runId}`, { intent: 'cancel' }, cookie)
  expect(cancelled.status).toBe(200)
  const run = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: user.auth })).json()
  expect(run.status).toBe('cancelled')
  const events = await app.db.selectFrom('run_events').select('type').where('run_id', '=', body.runId).execute()
  expect(events.map((event) => event.type)).toContain('cancelled')

  const after = await page(`/dashboard/runs/${body.runId}`, cookie)
  expect(after.html).not.toContain('Cancel run')
  expect(after.html).toContain('This run was cancelled')
  // Pressing it again (a second tab) changes nothing and breaks nothing.
  const again = await postForm(app.url, `/dashboard/runs/${body.runId}`, { intent: 'cancel' }, cookie)
  expect(again.status).toBe(200)
})

test('a trial run no worker has taken says it waits for one', async () => {
  const base = new URL(app.url)
  const started = await fetch(new URL('/trial', base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base.origin },
    body: new URLSearchParams({ topic: 'a queued trial', timeframe: '30d' }),
  })
  expect(started.status).toBe(302)
  const cookie = /(sx_trial=[^;]+)/.exec(started.headers.get('set-cookie') ?? '')?.[1] ?? ''
  const html = await (
    await app.fetch(started.headers.get('location') as string, { headers: { Cookie: cookie } })
  ).text()
  expect(html).toContain('Waiting for a worker…')
})

test("another account's run cannot be cancelled from the page, and a bad intent is refused", async () => {
  const owner = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, owner.auth, { topic: 'not yours to cancel', depth: 'quick' })
  const { cookie } = await signedIn()
  const foreign = await postForm(app.url, `/dashboard/runs/${body.runId}`, { intent: 'cancel' }, cookie)
  expect(foreign.status).toBe(404)
  const run = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: owner.auth })).json()
  expect(run.status).toBe('running')
  const mine = await signedIn()
  const own = await postBrief(app.fetch, mine.user.auth, { topic: 'mine', depth: 'quick' })
  const unknown = await postForm(app.url, `/dashboard/runs/${own.body.runId}`, { intent: 'explode' }, mine.cookie)
  expect(unknown.status).toBe(400)
  const malformed = await postForm(app.url, '/dashboard/runs/not-a-uuid', { intent: 'cancel' }, mine.cookie)
  expect(malformed.status).toBe(404)
})

test('the new-brief form takes a token and a cost budget as people type them; the run and series pages show them', async () => {
  const { user, cookie } = await signedIn()
  const form = (await page('/dashboard', cookie)).html.replaceAll('<!-- -->', '')
  expect(form).toMatch(/<label for="field-maxTokens"[^>]*>Token budget<\/label>/)
  expect(form).toMatch(/<label for="field-maxCostDollars"[^>]*>Cost budget \(\$\)<\/label>/)
  expect(form).toMatch(
    /<input [^>]*aria-describedby="field-maxTokens-hint"[^>]*inputMode="numeric"[^>]*name="maxTokens"/,
  )
  // This server sets no default and no model prices, and the hints say so.
  expect(form).toContain('Left empty, the run has no token limit.')
  expect(form).toContain('this server has no model prices, so tokens are not counted')

  const started = await postForm(
    app.url,
    '/dashboard',
    { topic: 'budgeted grid storage', depth: 'quick', maxTokens: '50,000', maxCostDollars: '$0.50', recurring: 'on' },
    cookie,
  )
  expect(started.status).toBe(302)
  const runId = /\/dashboard\/runs\/([\w-]+)$/.exec(started.headers.get('location') ?? '')?.[1] as string
  const run = await (await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).json()
  expect(run.brief).toMatchObject({ source: 'dashboard', maxTokens: 50_000, maxCostDollars: 0.5 })
  const runPage = (await page(`/dashboard/runs/${runId}`, cookie)).html.replaceAll('<!-- -->', '')
  expect(runPage).toMatch(/>Budget<\/dt><dd[^>]*>50,000 tokens and \$0\.50<\/dd>/)
  const seriesPage = (await page('/dashboard/series', cookie)).html.replaceAll('<!-- -->', '')
  expect(seriesPage).toContain('· at most 50,000 tokens and $0.50 per run')

  // Empty fields mean no budget, and the summary says nothing of one.
  const plain = await postForm(app.url, '/dashboard', { topic: 'plain', maxTokens: ' ', maxCostDollars: '' }, cookie)
  const plainId = /\/dashboard\/runs\/([\w-]+)$/.exec(plain.headers.get('location') ?? '')?.[1] as string
  const plainRun = await (await app.fetch(`/api/briefs/${plainId}`, { headers: user.auth })).json()
  expect(plainRun.brief).not.toHaveProperty('maxTokens')
  expect(plainRun.brief).not.toHaveProperty('maxCostDollars')
  expect((await page(`/dashboard/runs/${plainId}`, cookie)).html).not.toContain('>Budget<')
})

test('the recurring page lists a series and pauses, resumes and stops it', async () => {
  const { user, cookie } = await signedIn()
  const { body } = await postBrief(app.fetch, user.auth, {
    topic: 'weekly grid storage',
    depth: 'quick',
    recurring: true,
  })
  const run = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: user.auth })).json()
  const seriesId: string = run.recurring.seriesId
  const seriesState = async () =>
    (await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()).state

  const one = await (await app.fetch(`/api/series/${seriesId}`, { headers: user.auth })).json()
  expect(one).toMatchObject({ seriesId, state: 'running', lastRunId: body.runId })

  const listed = await page('/dashboard/series', cookie)
  expect(listed.status).toBe(200)
  expect(listed.html).toContain('weekly grid storage')
  expect(listed.html).toContain('Pause: weekly grid storage')

  expect((await postForm(app.url, '/dashboard/series', { intent: 'pause', seriesId }, cookie)).status).toBe(200)
  expect(await seriesState()).toBe('paused')
  expect((await page('/dashboard/series', cookie)).html).toContain('Resume: weekly grid storage')

  expect((await postForm(app.url, '/dashboard/series', { intent: 'resume', seriesId }, cookie)).status).toBe(200)
  expect(await seriesState()).toBe('running') // its first run is still going

  expect((await postForm(app.url, '/dashboard/series', { intent: 'stop', seriesId }, cookie)).status).toBe(200)
  expect(await seriesState()).toBe('cancelled')
  const stopped = await postForm(app.url, '/dashboard/series', { intent: 'resume', seriesId }, cookie)
  expect(stopped.status).toBe(409)
  expect(await stopped.text()).toContain('was stopped')
})

test("the recurring page neither shows nor changes another account's series", async () => {
  const owner = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, owner.auth, {
    topic: 'owner only series',
    depth: 'quick',
    recurring: true,
  })
  const run = await (await app.fetch(`/api/briefs/${body.runId}`, { headers: owner.auth })).json()
  const { cookie } = await signedIn()
  expect((await page('/dashboard/series', cookie)).html).not.toContain('owner only series')
  const refused = await postForm(
    app.url,
    '/dashboard/series',
    { intent: 'stop', seriesId: run.recurring.seriesId },
    cookie,
  )
  expect(refused.status).toBe(404)
  const malformed = await postForm(app.url, '/dashboard/series', { intent: 'stop', seriesId: "1' or 1=1" }, cookie)
  expect(malformed.status).toBe(404)
  const series = await (await app.fetch(`/api/series/${run.recurring.seriesId}`, { headers: owner.auth })).json()
  expect(series.state).toBe('running')
})

test('a page that is not found keeps the signed-in header: navigation, the account and log out', async () => {
  const { user, cookie } = await signedIn()
  const missing = await page('/dashboard/runs/00000000-0000-4000-8000-000000000000', cookie)
  expect(missing.status).toBe(404)
  expect(missing.html).toContain('There is no run at this address for your account.')
  for (const text of [user.email, 'Log out', 'href="/dashboard/topics"', 'href="/dashboard/feeds"'])
    expect(missing.html).toContain(text)
  const anonymous = await app.fetch('/no-such-page')
  expect(anonymous.status).toBe(404)
  expect(await anonymous.text()).not.toContain('Log out')
})

/** What a page shows of the second run's delta: each change old -> new with its quote, and the counts. */
function expectChangesShown(html: string) {
  // The markup only: the loader data the page hydrates from holds the report as it is stored.
  const page = html.replaceAll('<!-- -->', '').replace(/<script[\s\S]*?<\/script>/g, '')
  const updated = page.slice(page.indexOf('id="delta-updated"'), page.indexOf('id="delta-contradicted"'))
  expect(updated).toContain(`Was:</span> <del>${BEFORE.price.text}</del>`)
  expect(updated).toContain(`href="${BEFORE.price.url}"`)
  expect(updated).toMatch(
    new RegExp(`Now:</span> ${AFTER.price.text.replace(/[$/.]/g, '\\$&')} <a href="#source-\\d+"`),
  )
  expect(updated).toContain(`“${AFTER.price.text}”</blockquote>`)
  const contradicted = page.slice(page.indexOf('id="delta-contradicted"'), page.indexOf('id="delta-new"'))
  expect(contradicted).toContain(`Previously:</span> ${BEFORE.plant.text}`)
  expect(contradicted).toContain(`Now:</span> ${AFTER.plant.text}`)
  expect(contradicted).toContain(`“${AFTER.plant.text}”</blockquote>`)
  const added = page.slice(page.indexOf('id="delta-new"'), page.indexOf('id="report-heading"'))
  expect(added).toContain(`“${AFTER.recycling.text}”</blockquote>`)
  expect(page).toContain('3 claims changed: 1 updated, 1 contradicted and 1 new; 1 confirmed.')
  expect(page).toContain('1 claim confirmed: memory already held it, so it is not listed again.')
  expect(page).toContain('4 claims, 4 shown.')
  // What changed is shown once: not again as the summary's own block.
  expect(page).not.toContain('(was: ')
}

test('the run page of a second run shows each changed claim old -> new with its quote, and the confirmed count', async () => {
  const user = await createTestAccount(stubs.app.db)
  const { first, second } = await web.researchTwice(stubs.app, user)
  const cookie = await logIn(stubs.app.url, user.email, user.password)
  const response = await stubs.app.fetch(`/dashboard/runs/${second.runId}`, { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  expectChangesShown(await response.text())
  // The first run's page is the baseline: its findings with their quotes, behind a disclosure.
  const baseline = (
    await (await stubs.app.fetch(`/dashboard/runs/${first.runId}`, { headers: { Cookie: cookie } })).text()
  ).replaceAll('<!-- -->', '')
  expect(baseline).toMatch(/<summary[^>]*>The 3 findings and the words that support them<\/summary>/)
  expect(baseline).toContain(`“${BEFORE.plant.text}”</blockquote>`)
  expect(baseline).not.toContain('<del>')
})

test("the trial page shows a visitor's second run the same way", async () => {
  const base = new URL(stubs.app.url)
  let cookie = ''
  let path = ''
  for (const documents of [Object.values(BEFORE), Object.values(AFTER)]) {
    web.documents.splice(0, web.documents.length, ...documents)
    const started = await fetch(new URL('/trial', base), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: base.origin,
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: new URLSearchParams({ topic: CHANGING_TOPIC, timeframe: '30d' }),
    })
    expect(started.status).toBe(302)
    cookie ||= /(sx_trial=[^;]+)/.exec(started.headers.get('set-cookie') ?? '')?.[1] ?? ''
    path = started.headers.get('location') as string
    const runId = new URL(path, base).searchParams.get('run') as string
    for (let i = 0; i < 300; i++) {
      const run = await stubs.app.db
        .selectFrom('runs')
        .select('status')
        .where('id', '=', runId)
        .executeTakeFirstOrThrow()
      if (run.status !== 'running') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const response = await stubs.app.fetch(path, { headers: { Cookie: cookie } })
  expect(response.status).toBe(200)
  expectChangesShown(await response.text())
})
