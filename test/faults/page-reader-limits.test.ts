// The page reader's limits against hostile or broken sites: bodies past 2 MiB (declared, streamed or
// compressed), servers that never answer, types that are not pages, redirect loops, robots.txt, and
// no more than two requests to one host at once. Every site is a real server on 127.0.0.1.
import type http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import zlib from 'node:zlib'
import { afterEach, expect, test } from 'vitest'
import { boundedHtml } from '#server/providers/reader/html.ts'
import { createPageReader } from '#server/providers/reader/page-reader.ts'
import { newsArticleHtml, type StubWeb, type StubWebHandler, serve, startStubWeb } from '#test/support/stub-web.ts'

const MiB = 1024 * 1024
const webs: StubWeb[] = []
afterEach(async () => {
  await Promise.all(webs.splice(0).map((web) => web.close()))
})

async function site(routes: Record<string, StubWebHandler>) {
  const web = await startStubWeb(routes)
  webs.push(web)
  return { web, reader: createPageReader({ publicUrl: 'https://sextant.example', allowHosts: [web.host] }) }
}

const read = (reader: ReturnType<typeof createPageReader>, url: string) =>
  reader.read(url, { signal: AbortSignal.timeout(20_000) })

function drainedOrClosed(response: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done).off('close', done)
      resolve()
    }
    response.on('drain', done).on('close', done)
  })
}

/** A body of HTML paragraphs of about `bytes`. */
function htmlOfSize(bytes: number): Buffer {
  const paragraph = `<p>${'Heat pumps kept running through the cold snap. '.repeat(20)}</p>\n`
  return Buffer.from(
    `<!doctype html><title>Long</title><article>${paragraph.repeat(Math.ceil(bytes / paragraph.length))}</article>`,
  )
}

test('a 3 MiB page is refused: declared, streamed without a length, or inflating from gzip', async () => {
  let streamedBytes = 0
  let streamEnded = false
  const { reader, web } = await site({
    // Says 3 MiB and sends a little: refused on the header, without waiting for a body.
    '/declared': (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(3 * MiB) })
      response.write(htmlOfSize(1024))
    },
    // Chunked, and endless until the reader hangs up (64 MiB at most): the reader must cut it.
    '/streamed': async (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' })
      const chunk = htmlOfSize(64 * 1024)
      while (!response.destroyed && streamedBytes < 64 * MiB) {
        streamedBytes += chunk.length
        if (!response.write(chunk)) await drainedOrClosed(response)
      }
      streamEnded = !response.destroyed
      response.end()
    },
    '/bomb': (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' })
      response.end(zlib.gzipSync(htmlOfSize(3 * MiB)))
    },
  })

  for (const path of ['/declared', '/streamed', '/bomb']) {
    expect(await read(reader, `${web.origin}${path}`), path).toEqual({ ok: false, reason: 'over 2 MiB' })
  }
  expect(streamEnded).toBe(false)
  expect(streamedBytes).toBeLessThan(32 * MiB)
  // Just under the cap is read.
  const { reader: reader2, web: web2 } = await site({ '/fits': serve(htmlOfSize(2 * MiB - 4096)) })
  expect(await read(reader2, `${web2.origin}/fits`)).toMatchObject({ ok: true })
})

test('a server that never answers, or trickles its body, is given up on at the timeout', async () => {
  const held: http.ServerResponse[] = []
  const web = await startStubWeb({
    '/silent': (_request, response) => {
      held.push(response)
    },
    '/trickle': async (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' })
      while (!response.destroyed) {
        response.write('<p>still loading</p>')
        await sleep(50)
      }
    },
  })
  webs.push(web)
  const reader = createPageReader({ publicUrl: 'https://sextant.example', allowHosts: [web.host], timeoutMs: 500 })

  for (const path of ['/silent', '/trickle']) {
    const started = performance.now()
    expect(await read(reader, `${web.origin}${path}`), path).toEqual({ ok: false, reason: 'did not answer in 0.5 s' })
    expect(performance.now() - started).toBeLessThan(15_000)
  }
  for (const response of held) response.destroy()
})

test('a PDF, an image or a page without a content type is refused without reading it', async () => {
  const { reader, web } = await site({
    '/report.pdf': serve(Buffer.from('%PDF-1.7\n'), 'application/pdf'),
    '/chart.png': serve(Buffer.alloc(1000), 'image/png'),
    '/json': serve('{"a":1}', 'application/json; charset=utf-8'),
    '/untyped': (_request, response) => {
      response.removeHeader('Content-Type')
      response.writeHead(200).end('<p>hello</p>')
    },
    '/odd': serve('<p>hello</p>', 'text/<script>alert(1)</script>'),
  })

  expect(await read(reader, `${web.origin}/report.pdf`)).toEqual({
    ok: false,
    reason: 'not HTML or text (application/pdf)',
  })
  expect(await read(reader, `${web.origin}/chart.png`)).toEqual({ ok: false, reason: 'not HTML or text (image/png)' })
  expect(await read(reader, `${web.origin}/json`)).toEqual({ ok: false, reason: 'not HTML or text (application/json)' })
  expect(await read(reader, `${web.origin}/untyped`)).toEqual({
    ok: false,
    reason: 'not HTML or text (no content type)',
  })
  expect(await read(reader, `${web.origin}/odd`)).toEqual({
    ok: false,
    reason: 'not HTML or text (an unknown content type)',
  })
})

test('5 redirects are followed, the 6th is refused', async () => {
  const routes: Record<string, StubWebHandler> = { '/page': serve(newsArticleHtml()) }
  for (let hop = 1; hop <= 6; hop++) {
    routes[`/r${hop}`] = (_request, response) => {
      response.writeHead(hop % 2 ? 302 : 307, { Location: hop === 6 ? '/page' : `/r${hop + 1}` }).end()
    }
  }
  routes['/loop'] = (_request, response) => {
    response.writeHead(301, { Location: '/loop' }).end()
  }
  const { reader, web } = await site(routes)

  expect(await read(reader, `${web.origin}/r2`)).toMatchObject({ ok: true, url: `${web.origin}/page` })
  expect(await read(reader, `${web.origin}/r1`)).toEqual({ ok: false, reason: 'more than 5 redirects' })
  expect(await read(reader, `${web.origin}/loop`)).toEqual({ ok: false, reason: 'more than 5 redirects' })
  expect(web.requests.filter((request) => request.path === '/loop')).toHaveLength(6)
})

test('robots.txt: a Disallow for our agent or for all is obeyed, and the page is never requested', async () => {
  const { reader, web } = await site({
    '/robots.txt': serve(
      'User-agent: *\nDisallow: /drafts/\n\nUser-agent: Sextant\nDisallow: /private/\n',
      'text/plain',
    ),
    '/private/report': serve(newsArticleHtml()),
    '/public/report': serve(newsArticleHtml()),
  })

  expect(await read(reader, `${web.origin}/private/report`)).toEqual({ ok: false, reason: 'robots.txt disallows it' })
  expect(await read(reader, `${web.origin}/public/report`)).toMatchObject({ ok: true })
  expect(web.requests.map((request) => request.path)).toEqual(['/robots.txt', '/public/report'])

  const closed = await site({
    '/robots.txt': serve('User-agent: *\nDisallow: /\n', 'text/plain'),
    '/a': serve(newsArticleHtml()),
  })
  expect(await read(closed.reader, `${closed.web.origin}/a`)).toEqual({ ok: false, reason: 'robots.txt disallows it' })
  expect(closed.web.requests.map((request) => request.path)).toEqual(['/robots.txt'])
})

test('a robots.txt that fails with 5xx closes the site; a redirect into a disallowed path is refused', async () => {
  const down = await site({
    '/robots.txt': (_request, response) => {
      response.writeHead(503).end()
    },
    '/a': serve(newsArticleHtml()),
  })
  expect(await read(down.reader, `${down.web.origin}/a`)).toEqual({
    ok: false,
    reason: 'robots.txt could not be fetched, so the site is not read for now',
  })
  expect(down.web.requests.map((request) => request.path)).toEqual(['/robots.txt'])

  const { reader, web } = await site({
    '/robots.txt': serve('User-agent: *\nDisallow: /private/\n', 'text/plain'),
    '/go': (_request, response) => {
      response.writeHead(302, { Location: '/private/a' }).end()
    },
    '/private/a': serve(newsArticleHtml()),
  })
  expect(await read(reader, `${web.origin}/go`)).toEqual({ ok: false, reason: 'robots.txt disallows it' })
  expect(web.requests.map((request) => request.path)).toEqual(['/robots.txt', '/go'])
})

test('at most two requests reach one host at once, however many reads are waiting', async () => {
  let inFlight = 0
  const { reader, web } = await site({
    ...Object.fromEntries(
      Array.from({ length: 6 }, (_, index) => [
        `/p${index}`,
        async (_request: http.IncomingMessage, response: http.ServerResponse) => {
          // Hold each answer until a second request is in flight (or a while has passed), so reads that
          // may overlap do, and an unbounded reader would have all six in flight here.
          inFlight++
          for (let waited = 0; inFlight < 2 && waited < 2000; waited += 20) await sleep(20)
          await sleep(50)
          inFlight--
          response.writeHead(200, { 'Content-Type': 'text/html' }).end(newsArticleHtml())
        },
      ]),
    ),
  })

  const pages = await Promise.all(Array.from({ length: 6 }, (_, index) => read(reader, `${web.origin}/p${index}`)))

  expect(pages.every((page) => page.ok)).toBe(true)
  expect(web.maxInFlight()).toBe(2)
  expect(web.requests).toHaveLength(7) // robots.txt once, then the six pages
})

test('a page nested 3,000 deep, which once held a parser for a minute, is flattened first and read at once', async () => {
  const nested = `<html><body>${'<div>'.repeat(3000)}${newsArticleHtml()}${'</div>'.repeat(3000)}</body></html>`
  const web = await startStubWeb({ '/nested': serve(nested) })
  webs.push(web)
  // The default deadline of 10 s: the read does not come near it, whatever the machine.
  const reader = createPageReader({ publicUrl: 'https://sextant.example', allowHosts: [web.host] })
  expect(await read(reader, `${web.origin}/nested`)).toMatchObject({ ok: true })
})

test('a page being parsed when its run is cancelled has its parser stopped, and the next page is still read', async () => {
  // Within the bounds a page is parsed with (reader/html.ts): 9,200 elements 40 deep, hundreds of
  // milliseconds of Readability on any machine; the run is cancelled as soon as the page is served.
  const block = `${'<div>'.repeat(40)}deep text${'</div>'.repeat(40)}`
  const nested = `<html><body>${block.repeat(230)}</body></html>`
  expect(boundedHtml(nested)).toBe(nested)
  const web = await startStubWeb({ '/nested': serve(nested), '/article': serve(newsArticleHtml()) })
  webs.push(web)
  const reader = createPageReader({ publicUrl: 'https://sextant.example', allowHosts: [web.host] })
  const run = new AbortController()
  const reading = reader.read(`${web.origin}/nested`, { signal: run.signal })
  for (let waited = 0; !web.requests.some((request) => request.path === '/nested') && waited < 10_000; waited += 10)
    await sleep(10)
  run.abort(new Error('the run was cancelled'))
  await expect(reading).rejects.toThrow('the run was cancelled')
  // The worker that was stopped is replaced: the next page is read.
  expect(await read(reader, `${web.origin}/article`)).toMatchObject({ ok: true })
})
