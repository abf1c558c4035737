// A stand-in for the web the page reader fetches: an HTTP server on 127.0.0.1 whose routes the test
// writes, counting every request and how many were in flight at once; and a news page built like
// real ones (navigation, header, scripts that contain text, a cookie banner, the article, related
// links, footer), with the phrases that must come out of it and those that must not.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type StubWebHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>

export type StubWeb = {
  /** `http://127.0.0.1:<port>` (or the address it was given) */
  origin: string
  /** `127.0.0.1:<port>`, as READER_ALLOW_HOSTS names it. */
  host: string
  port: number
  /** Every request received (path and headers), robots.txt included, in order of arrival. */
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders }>
  /** TCP connections accepted, whether or not a request followed. */
  connections: () => number
  /** The most requests that were being answered at the same time. */
  maxInFlight: () => number
  close: () => Promise<void>
}

/**
 * Routes by path (with query); an unknown path answers 404, as does /robots.txt unless routed.
 * `address`: another loopback address to listen on (127.0.0.2), and `port`, a port to share with it.
 */
export async function startStubWeb(
  routes: Record<string, StubWebHandler> = {},
  options: { address?: string; port?: number } = {},
): Promise<StubWeb> {
  const requests: StubWeb['requests'] = []
  let connections = 0
  let inFlight = 0
  let maxInFlight = 0
  const server = http.createServer(async (request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers })
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    let counted = true
    const done = () => {
      if (counted) inFlight--
      counted = false
    }
    response.on('close', done)
    const handler = routes[request.url ?? '']
    if (!handler) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')
      return
    }
    try {
      await handler(request, response)
    } catch {
      response.destroy()
    }
  })
  server.on('connection', () => connections++)
  const address = options.address ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, address, resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://${address}:${port}`,
    host: `${address}:${port}`,
    port,
    requests,
    connections: () => connections,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A handler that answers 200 with this body and content type. */
export function serve(body: string | Buffer, contentType = 'text/html; charset=utf-8'): StubWebHandler {
  return (_request, response) => {
    response.writeHead(200, { 'Content-Type': contentType }).end(body)
  }
}

export const ARTICLE_TITLE = 'Norway’s heat pumps outlast a record cold snap'

export const ARTICLE_PARAGRAPHS = [
  'When temperatures in Røros fell to minus 38 degrees in January, the town’s grid operator expected the worst. Instead, the 4,100 air-to-water heat pumps installed since 2019 kept running, and peak demand rose by only 11 percent over the previous winter.',
  'Engineers at the regional utility attribute the result to a 2022 rule that requires new installations to be sized for the coldest week on record rather than the average winter. Older units, installed before the rule, accounted for most of the 230 service calls logged during the cold snap.',
  'The national energy agency now plans to extend the sizing rule to retrofits from 2027, a change it estimates will add between 6,000 and 9,000 kroner to a typical installation.',
  'Installers say the bigger obstacle is not cost but waiting lists: in Trøndelag, a household that orders a heat pump today waits an average of fourteen weeks for a certified technician.',
  'Heat pumps now heat roughly two thirds of Norwegian homes, the highest share in Europe, according to the agency’s annual report published in March.',
]

/** Text on the page outside the article: none of it may be read as the article. */
export const NOISE_PHRASES = [
  'Subscribe for unlimited access',
  'Weather Sports Opinion Podcasts',
  'We value your privacy',
  'Accept all cookies',
  'window.dataLayer',
  'trackPageview',
  'Most read this week',
  'Electric ferries cross the fjord',
  '© 2026 Nordic Energy Daily',
  'Contact the newsroom',
  'Sign up for the morning briefing',
]

export const ARTICLE_PUBLISHED = '2026-02-03T07:30:00+01:00'

/** The news page, as a CMS would render it. */
export function newsArticleHtml(options: { title?: string; paragraphs?: string[]; published?: string } = {}): string {
  const title = options.title ?? ARTICLE_TITLE
  const paragraphs = options.paragraphs ?? ARTICLE_PARAGRAPHS
  const published = options.published ?? ARTICLE_PUBLISHED
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title} | Nordic Energy Daily</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta property="og:title" content="${title}">
  <meta property="og:type" content="article">
  <meta property="article:published_time" content="${published}">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"${title}","datePublished":"${published}","author":{"@type":"Person","name":"Ingrid Dahl"}}</script>
  <script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments)} gtag('js', new Date()); gtag('event', 'trackPageview', { section: 'energy', text: 'Most read this week' });</script>
  <style>.cookie-banner { position: fixed; bottom: 0 } body { font-family: Georgia, serif }</style>
</head>
<body class="article-page">
  <div id="onetrust-banner-sdk" class="cookie-banner" role="dialog" aria-label="Cookie banner">
    <p>We value your privacy. We and our 842 partners use cookies to store and access information on your device, to personalise ads and content, and to measure audiences.</p>
    <button>Accept all cookies</button> <button>Manage preferences</button>
  </div>
  <header class="site-header">
    <a class="logo" href="/">Nordic Energy Daily</a>
    <nav class="main-nav" aria-label="Sections">
      <ul><li><a href="/news">News</a></li><li><a href="/weather">Weather</a></li><li><a href="/sports">Sports</a></li><li><a href="/opinion">Opinion</a></li><li><a href="/podcasts">Podcasts</a></li></ul>
      <span class="menu-label">Weather Sports Opinion Podcasts</span>
    </nav>
    <div class="paywall-cta"><a href="/subscribe">Subscribe for unlimited access</a> from 1 krone a week</div>
  </header>
  <main id="content">
    <div class="breadcrumbs"><a href="/news">News</a> › <a href="/news/energy">Energy</a></div>
    <article class="story">
      <h1 class="headline">${title}</h1>
      <div class="byline">By <a href="/authors/ingrid-dahl">Ingrid Dahl</a>, energy correspondent · <time datetime="${published}">3 February 2026</time></div>
      <figure class="lead-image"><img src="/images/roros.jpg" alt="Snow on rooftops in Røros"><figcaption>Røros in January.</figcaption></figure>
      <div class="story-body">
${paragraphs.map((paragraph) => `        <p>${paragraph}</p>`).join('\n')}
      </div>
      <div class="share-tools social"><a href="#">Share on Facebook</a> <a href="#">Share on X</a> <a href="#">Email</a></div>
      <script>document.querySelectorAll('.story-body p').forEach(function (p) { p.dataset.tracked = 'trackPageview' })</script>
    </article>
    <aside class="related sidebar">
      <h2>Most read this week</h2>
      <ul>
        <li><a href="/news/ferries">Electric ferries cross the fjord in record numbers</a></li>
        <li><a href="/news/hydro">Hydropower reservoirs at a ten-year low</a></li>
        <li><a href="/news/wind">Offshore wind auction draws six bidders</a></li>
      </ul>
    </aside>
    <div class="newsletter-signup"><h3>Sign up for the morning briefing</h3><form><input type="email" placeholder="Your email"><button>Sign up</button></form></div>
  </main>
  <footer class="site-footer">
    <p>© 2026 Nordic Energy Daily. All rights reserved.</p>
    <ul><li><a href="/contact">Contact the newsroom</a></li><li><a href="/privacy">Privacy policy</a></li><li><a href="/cookies">Cookie settings</a></li></ul>
  </footer>
  <script src="/static/app.3f9c.js"></script>
  <script>(function(){var s=document.createElement('script');s.src='https://ads.example/tag.js';document.body.appendChild(s);window.trackPageview && trackPageview('Subscribe for unlimited access')})()</script>
</body>
</html>`
}
