// The page reader against a stub web on 127.0.0.1 (admitted through the allow list, as an intranet
// would be): what it returns of a real-looking news page, of plain text, and what the site sees.
import zlib from 'node:zlib'
import { afterEach, expect, test } from 'vitest'
import { createPageReader } from '#server/providers/reader/page-reader.ts'
import {
  ARTICLE_PARAGRAPHS,
  ARTICLE_TITLE,
  NOISE_PHRASES,
  newsArticleHtml,
  type StubWeb,
  serve,
  startStubWeb,
} from '#test/support/stub-web.ts'

const PUBLIC_URL = 'https://sextant.example'
const webs: StubWeb[] = []
afterEach(async () => {
  await Promise.all(webs.splice(0).map((web) => web.close()))
})

async function web(routes: Parameters<typeof startStubWeb>[0]) {
  const started = await startStubWeb(routes)
  webs.push(started)
  return started
}

const signal = () => AbortSignal.timeout(20_000)

test('a news page gives its article paragraphs, title and date, and none of its navigation, scripts, cookie banner or footer', async () => {
  const site = await web({ '/news/heat-pumps': serve(newsArticleHtml()) })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  const page = await reader.read(`${site.origin}/news/heat-pumps`, { signal: signal() })

  if (!page.ok) throw new Error(`not read: ${page.reason}`)
  expect(page.url).toBe(`${site.origin}/news/heat-pumps`)
  expect(page.title).toBe(ARTICLE_TITLE)
  expect(page.publishedDate).toBe('2026-02-03T06:30:00.000Z')
  // Each paragraph whole, in order, separated by blank lines.
  expect(page.text.split('\n\n')).toEqual(expect.arrayContaining(ARTICLE_PARAGRAPHS))
  expect(page.text).toContain(ARTICLE_PARAGRAPHS.join('\n\n'))
  for (const phrase of NOISE_PHRASES) expect(page.text).not.toContain(phrase)
  expect(page.text).not.toMatch(/dataLayer|function\s*\(|gtag|cookies/)
})

test('the site sees our named User-Agent and is asked for robots.txt before the page', async () => {
  const site = await web({ '/a': serve(newsArticleHtml()) })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  await reader.read(`${site.origin}/a`, { signal: signal() })
  await reader.read(`${site.origin}/a`, { signal: signal() })

  // robots.txt once for both reads (cached per origin), then the page each time.
  expect(site.requests.map((request) => request.path)).toEqual(['/robots.txt', '/a', '/a'])
  for (const request of site.requests) {
    expect(request.headers['user-agent']).toBe('Sextant/1.0 (+https://sextant.example)')
  }
})

test('a redirect within the allowed site is followed and the final URL returned', async () => {
  const site = await web({
    '/old': (_request, response) => {
      response.writeHead(301, { Location: '/new?x=1' }).end()
    },
    '/new?x=1': serve(newsArticleHtml()),
  })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  const page = await reader.read(`${site.origin}/old`, { signal: signal() })

  expect(page).toMatchObject({ ok: true, url: `${site.origin}/new?x=1` })
})

test('plain text comes back as its paragraphs, without a title or date', async () => {
  const body = 'First paragraph,\r\nstill the first.\r\n\r\n\r\n   Second paragraph.   \n\nThird.\n'
  const site = await web({ '/notes.txt': serve(body, 'text/plain; charset=utf-8') })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  const page = await reader.read(`${site.origin}/notes.txt`, { signal: signal() })

  expect(page).toEqual({
    ok: true,
    url: `${site.origin}/notes.txt`,
    title: '',
    text: 'First paragraph,\nstill the first.\n\nSecond paragraph.\n\nThird.',
    publishedDate: null,
  })
})

test('a gzip page in a legacy charset is decoded, and NUL characters are dropped', async () => {
  const html = newsArticleHtml({
    paragraphs: [
      'Ærlig talt, sa Øystein, er det få som vil vente fjorten uker på en varmepumpe\u0000 i Trøndelag i vinter, særlig når strømprisen stiger og naboene allerede har fått sin montert.',
    ],
  })
    .replace('<meta charset="utf-8">', '<meta charset="iso-8859-1">')
    .replace(/[’]/g, "'")
  const site = await web({
    '/latin1': (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' })
      response.end(zlib.gzipSync(Buffer.from(html, 'latin1')))
    },
  })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  const page = await reader.read(`${site.origin}/latin1`, { signal: signal() })

  if (!page.ok) throw new Error(`not read: ${page.reason}`)
  expect(page.text).toContain(
    'Ærlig talt, sa Øystein, er det få som vil vente fjorten uker på en varmepumpe i Trøndelag',
  )
  expect(page.text).not.toContain('\u0000')
})

test('a page of links, or an app shell, says it has no article instead of returning its navigation', async () => {
  const links = Array.from(
    { length: 40 },
    (_, index) => `<li><a href="/p/${index}">Story number ${index} of the day</a></li>`,
  )
  const site = await web({
    '/index': serve(`<!doctype html><title>Home</title><div class="content"><ul>${links.join('')}</ul></div>`),
    '/app': serve(
      '<!doctype html><html><head><title>App</title><script src="/app.js"></script></head><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"><p>Loading…</p></div></body></html>',
    ),
  })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  for (const path of ['/index', '/app']) {
    expect(await reader.read(`${site.origin}${path}`, { signal: signal() }), path).toEqual({
      ok: false,
      reason: 'no article text found on the page',
    })
  }
})

test('a 404 is an answer with the status, not an exception', async () => {
  const site = await web({})
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })

  expect(await reader.read(`${site.origin}/gone`, { signal: signal() })).toEqual({
    ok: false,
    reason: 'the site answered 404',
  })
})

test("the caller's own abort is thrown, not turned into an unread page", async () => {
  const site = await web({ '/slow': () => {} })
  const reader = createPageReader({ publicUrl: PUBLIC_URL, allowHosts: [site.host] })
  const controller = new AbortController()

  const reading = reader.read(`${site.origin}/slow`, { signal: controller.signal })
  setTimeout(() => controller.abort(new Error('run cancelled')), 50)

  await expect(reading).rejects.toThrow('run cancelled')
})
