// Hostile web pages: a search provider returning titles, texts and URLs full of <script>, event
// handlers, javascript: and data: links and markdown link tricks (nested, repeated, reference-style,
// autolinks), and a model that repeats them in its findings (prompt injection), for a brief whose
// objective carries bidi overrides. Researched through the model and through the extractive writer,
// the dashboard run page, the topic page, the trial page and the export carry none of it in a form
// a browser would execute or a reader could click (no link to a host the run did not cite), nothing
// renders reversed, and Chromium rendering the pages sees no dialog, error or injected code.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { collectPageErrors, hasChromium, launchBrowser } from '#test/support/browser.ts'
import { logIn } from '#test/support/browser-session.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, type StubExa, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

const TOPIC = 'Tidal power'
// Each payload sets window.__pwned if it ever runs.
const PAYLOADS = [
  '<script>window.__pwned="script"</script>',
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<svg onload="window.__pwned=\'svg\'"></svg>',
  '[official source](javascript:window.__pwned="md-link")',
  '[report](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)',
  '<a href="javascript:window.__pwned=\'a\'">read more</a>',
  '</script><script>window.__pwned="breakout"</script>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '"><body onload="window.__pwned=\'attr\'">',
  // Links that are not script but phishing: none may stay clickable. Every target is on .test.
  '[[official](https://a.test)](https://evil.test/phish)',
  '[[[deeper](https://e1.test)](https://e2.test)](https://evil.test/deep)',
  '[the memo][m] <https://evil.test/auto> www.evil.test',
  '<a href="//evil.test/html">mirror</a>',
]
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/
const hostile = PAYLOADS.join(' ')
// What "[the memo][m]" would point to: a definition must open a line, so it ends the page and the model's text.
const DEFINITION = '\n\n[m]: https://evil.test/ref'

let exa: StubExa
let openai: StubOpenAi
let withModel: TestApp
let extractive: TestApp
let browser: Browser | undefined

beforeAll(async () => {
  exa = await startStubExa({
    documents: [
      {
        url: 'https://evil.example/tidal?q="><script>window.__pwned="url"</script>',
        title: `Tidal power ${hostile}`,
        publishedDate: new Date().toISOString(),
        text: `Tidal power: a barrage doubled its output. ${hostile} Tidal power turbines were replaced in spring.${DEFINITION}`,
      },
      {
        url: 'javascript:window.__pwned="source-url"//tidal',
        title: 'Tidal power link that is not a web page',
        publishedDate: new Date().toISOString(),
        text: 'Tidal power: this result has a javascript: URL and must never become a link.',
      },
    ],
  })
  openai = await startStubOpenAi()
  const env = { EXA_API_KEY: STUB_EXA_API_KEY, EXA_BASE_URL: exa.url, RATE_LIMIT_RUNS_PER_HOUR: '1000' }
  withModel = await startTestApp({ env: { ...env, OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl } })
  extractive = await startTestApp({ env })
  if (hasChromium) browser = await launchBrowser()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await withModel?.stop()
  await extractive?.stop()
  await exa?.close()
  await openai?.close()
})

/** No markup in the HTML that a browser would run: only nonced scripts, no handlers, no script URLs. */
function expectInert(html: string, what: string) {
  const nonce = /<script[^>]*\snonce="([^"]+)"/.exec(html)?.[1]
  expect(nonce, `${what}: no nonced script at all`).toBeDefined()
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const [tag, name = '', attributes = ''] = match
    const lower = name.toLowerCase()
    expect(['iframe', 'object', 'embed', 'base', 'frame', 'frameset'], `${what}: ${tag}`).not.toContain(lower)
    if (lower === 'script') expect(attributes, `${what}: ${tag}`).toContain(`nonce="${nonce}"`)
    expect(attributes, `${what}: an event handler in ${tag}`).not.toMatch(/\son[a-z]+\s*=/i)
    for (const [, , value = ''] of attributes.matchAll(/\s(href|src|action|formaction|srcdoc)\s*=\s*"([^"]*)"/gi)) {
      const decoded = value.replace(/&#x([0-9a-f]+);?/gi, (_, hex) => String.fromCodePoint(Number.parseInt(hex, 16)))
      expect(decoded.replace(/[\s\p{Cc}]/gu, ''), `${what}: a script URL in ${tag}`).not.toMatch(
        /^(javascript|data|vbscript):/i,
      )
    }
  }
  expect(html, `${what}: an unescaped payload`).not.toContain('window.__pwned="script"</script>')
  const hrefs = [...html.matchAll(/\shref="([^"]*)"/g)].map((match) => match[1] ?? '')
  expect(
    hrefs.filter((href) => /\.test\b/.test(href)),
    `${what}: a link to where a page pointed`,
  ).toEqual([])
  expect(html, `${what}: a bidi control`).not.toMatch(BIDI)
}

async function renderInBrowser(url: string, cookie: { name: string; value: string }, base: string, what: string) {
  if (!browser) return
  const context = await browser.newContext()
  await context.addCookies([{ ...cookie, url: base }])
  const page = await context.newPage()
  const errors = collectPageErrors(page)
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.goto(url)
  await page.waitForLoadState('networkidle')
  // Hydrated: React has taken over the page, so client rendering of the report ran too.
  await page.waitForFunction(() => document.querySelector('h1') !== null)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), what).toBeUndefined()
  expect(dialogs, what).toEqual([])
  expect(errors, what).toEqual([])
  const links = await page.locator('a').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href))
  for (const href of links) {
    expect(href, what).toMatch(/^(https?:|about:blank)/)
    expect(new URL(href).hostname, `${what}: a link to where a page pointed`).not.toMatch(/\.test$/)
  }
  await context.close()
}

for (const kind of ['model', 'extractive'] as const) {
  test(`${kind} report: the run, topic and trial pages and the export carry no executable injection`, {
    timeout: 60_000,
  }, async () => {
    const app = kind === 'model' ? withModel : extractive
    if (kind === 'model') {
      // A model that repeats what it read, hostile parts included, in every field it writes.
      openai.onSynthesize((request) => ({
        content: {
          headline: `Tidal power ${hostile}`,
          findings: [
            // Quotes that are on the page, so the hostile claims pass the quote check and are shown.
            {
              text: `Tidal power output doubled ${hostile} [1]`,
              quote: 'a barrage doubled its output',
              sourceIds: [1],
            },
            {
              text: `See ${PAYLOADS[3]} and ${PAYLOADS[4]}`,
              quote: 'Tidal power turbines were replaced in spring.',
              sourceIds: [1],
            },
          ],
          sections: null,
          implications: `${hostile} [1]${DEFINITION}`,
          gaps: [hostile],
        },
        usage: { prompt_tokens: request.text.length, completion_tokens: 10 },
      }))
    }
    const user = await createTestAccount(app.db)
    const { body } = await postBrief(app.fetch, user.auth, {
      topic: TOPIC,
      objective: 'Who \u202Esdliub\u202C the barrages',
      focus: 'cost,\u2067 output\u2069',
      depth: 'quick',
    })
    const done = await waitForRun(app.fetch, user.auth, body.runId)
    expect(done.status).toBe('complete')
    // The hostile text is in the report: the pages below really have it to render.
    expect(JSON.stringify(done.report)).toContain('__pwned')
    expect(done.report?.sources.every((source) => /^https?:\/\//.test(source.url))).toBe(true)

    const session = await logIn(app.url, user.email, user.password)
    const topic = await app.db
      .selectFrom('topics')
      .select('id')
      .where('account_id', '=', user.account.id)
      .executeTakeFirstOrThrow()
    const pages = [`/dashboard/runs/${body.runId}`, `/dashboard/topics/${topic.id}`, '/dashboard/topics?q=tidal']
    for (const path of pages) {
      const response = await app.fetch(path, { headers: { Cookie: session } })
      expect(response.status, path).toBe(200)
      const html = await response.text()
      expect(html, `${path} shows the hostile text (escaped)`).toContain('__pwned')
      expectInert(html, path)
    }
    const exported = await app.fetch(`/dashboard/topics/${topic.id}/export`, { headers: { Cookie: session } })
    expect(exported.headers.get('content-type')).toMatch(/^text\/markdown/)
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment/)
    expect(exported.headers.get('x-content-type-options')).toBe('nosniff')
    const markdown = await exported.text()
    expect(unexpectedTargets(markdown, done.report?.sources.map((source) => source.url) ?? [])).toEqual([])
    expect(markdown).not.toMatch(BIDI)

    // The trial page renders the same report component for a visitor.
    const trial = await fetch(new URL('/trial', app.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(app.url).origin },
      body: new URLSearchParams({ topic: TOPIC }),
    })
    const trialCookie = /sx_trial=([^;]+)/.exec(trial.headers.get('set-cookie') ?? '')?.[1] as string
    const trialPath = trial.headers.get('location') as string
    const trialRunId = new URL(trialPath, app.url).searchParams.get('run') as string
    if (kind === 'model') expect(openai.requests.at(-1)?.kind).toBeDefined()
    for (let i = 0; i < 100; i++) {
      const run = await app.db
        .selectFrom('runs')
        .select('status')
        .where('id', '=', trialRunId)
        .executeTakeFirstOrThrow()
      if (run.status !== 'running') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const trialHtml = await (await app.fetch(trialPath, { headers: { Cookie: `sx_trial=${trialCookie}` } })).text()
    expect(trialHtml).toContain('__pwned')
    expectInert(trialHtml, 'the trial page')

    await renderInBrowser(`${app.url}/dashboard/runs/${body.runId}`, cookieOf(session), app.url, 'run page')
    await renderInBrowser(`${app.url}/dashboard/topics/${topic.id}`, cookieOf(session), app.url, 'topic page')
    await renderInBrowser(`${app.url}${trialPath}`, { name: 'sx_trial', value: trialCookie }, app.url, 'trial page')
  })
}

function cookieOf(header: string) {
  const [name = '', value = ''] = header.split('=')
  return { name, value }
}
