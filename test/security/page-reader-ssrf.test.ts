// SSRF: a search result or a redirect that points the page reader at loopback, a private network,
// cloud metadata or an IPv6 spelling of them is never fetched. A canary server on 127.0.0.1, not in
// the allow list, counts every connection it accepts: it must see none, however the URL is written.
import type { LookupAddress } from 'node:dns'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPageReader } from '#server/providers/reader/page-reader.ts'
import { newsArticleHtml, type StubWeb, serve, startStubWeb } from '#test/support/stub-web.ts'

const PUBLIC_URL = 'https://sextant.example'
let canary: StubWeb
let site: StubWeb
beforeAll(async () => {
  canary = await startStubWeb({ '/': serve(newsArticleHtml()), '/secret': serve(newsArticleHtml()) })
  site = await startStubWeb()
})
afterAll(async () => {
  await Promise.all([canary.close(), site.close()])
})

/** A resolver that knows a few names the way an attacker's DNS would answer them. */
function attackerDns(names: Record<string, string[]>) {
  return async (hostname: string): Promise<LookupAddress[]> => {
    const addresses = names[hostname]
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
}

function reader(options: { allowHosts?: string[]; names?: Record<string, string[]> } = {}) {
  return createPageReader({
    publicUrl: PUBLIC_URL,
    allowHosts: options.allowHosts ?? [],
    // A refusal comes before any connection; a short timeout makes a broken guard fail, not hang.
    timeoutMs: 3000,
    ...(options.names ? { resolve: attackerDns(options.names) } : {}),
  })
}

const read = (pageReader: ReturnType<typeof reader>, url: string) =>
  pageReader.read(url, { signal: AbortSignal.timeout(20_000) })

test('loopback, however the URL spells it, is refused and the canary hears nothing', async () => {
  const port = canary.port
  const urls = [
    `http://127.0.0.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://localhost:${port}/`, // the system resolver (/etc/hosts) says 127.0.0.1
    `http://127.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f.0.0.1:${port}/`,
    `http://0.0.0.0:${port}/`, // Linux connects 0.0.0.0 to this machine
    `http://[::1]:${port}/`,
    `http://[::]:${port}/`,
    `https://127.0.0.1:${port}/`,
  ]
  for (const url of urls) {
    expect(await read(reader(), url), url).toEqual({ ok: false, reason: 'resolves to a private address' })
  }
  expect(canary.connections()).toBe(0)
})

test('a name that resolves to loopback, or to a public and a private address, is refused', async () => {
  const pageReader = reader({
    names: {
      'evil.test': ['127.0.0.1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'mixed.test': ['93.184.215.14', '127.0.0.1'],
      'nat64.test': ['64:ff9b::7f00:1'],
    },
  })
  for (const host of ['evil.test', 'mapped.test', 'mixed.test', 'nat64.test']) {
    const url = `http://${host}:${canary.port}/secret`
    expect(await read(pageReader, url), url).toEqual({ ok: false, reason: 'resolves to a private address' })
  }
  expect(canary.connections()).toBe(0)
})

test('cloud metadata, private networks and link-local addresses are refused before any connection', async () => {
  const pageReader = reader({ names: { 'metadata.google.internal': ['169.254.169.254'] } })
  const urls = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://10.0.0.1/',
    'http://172.16.5.4:8080/admin',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
  ]
  for (const url of urls) {
    expect(await read(pageReader, url), url).toEqual({ ok: false, reason: 'resolves to a private address' })
  }
})

test('other schemes and URLs with credentials are refused', async () => {
  const pageReader = reader()
  expect(await read(pageReader, 'file:///etc/passwd')).toEqual({ ok: false, reason: 'not http or https (file:)' })
  expect(await read(pageReader, 'gopher://127.0.0.1:70/')).toEqual({ ok: false, reason: 'not http or https (gopher:)' })
  expect(await read(pageReader, 'not a url')).toEqual({ ok: false, reason: 'not a URL' })
  expect(await read(pageReader, `http://user:pw@127.0.0.1:${canary.port}/`)).toEqual({
    ok: false,
    reason: 'a URL with a user name or password',
  })
  expect(canary.connections()).toBe(0)
})

test('an allowed site that redirects to the canary (any spelling) is stopped at the redirect', async () => {
  const redirects = {
    '/to-ip': `http://127.0.0.1:${canary.port}/secret`,
    '/to-mapped': `http://[::ffff:127.0.0.1]:${canary.port}/secret`,
    '/to-localhost': `http://localhost:${canary.port}/secret`,
    '/to-name': `http://evil.test:${canary.port}/secret`,
    '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  }
  const redirector = await startStubWeb(
    Object.fromEntries(
      Object.entries(redirects).map(([path, location]) => [
        path,
        (_request, response) => {
          response.writeHead(302, { Location: location }).end()
        },
      ]),
    ),
  )
  try {
    const pageReader = reader({
      allowHosts: [redirector.host],
      names: { 'evil.test': ['127.0.0.1'], localhost: ['127.0.0.1'] },
    })
    for (const path of Object.keys(redirects)) {
      expect(await read(pageReader, `${redirector.origin}${path}`), path).toEqual({
        ok: false,
        reason: 'resolves to a private address',
      })
    }
    // The redirector was asked (its robots.txt, then each path); the canary never was.
    expect(redirector.requests.map((request) => request.path)).toEqual(['/robots.txt', ...Object.keys(redirects)])
    expect(canary.connections()).toBe(0)
  } finally {
    await redirector.close()
  }
})

test('the allow list admits exactly its host:port: the same host on another port stays refused', async () => {
  const pageReader = reader({ allowHosts: [site.host, `localhost:${canary.port}`] })
  expect(await read(pageReader, `http://127.0.0.1:${canary.port}/`)).toEqual({
    ok: false,
    reason: 'resolves to a private address',
  })
  expect(canary.connections()).toBe(0)
})

test('each fetch resolves the name once and connects to that answer, so rebinding the name cannot redirect it', async () => {
  // The stub and a second canary share a port, on 127.0.0.1 and 127.0.0.2. The name answers
  // 127.0.0.1 to the two lookups the read needs (robots.txt, the page) and 127.0.0.2 after that:
  // a connection that looked the name up again would land on the canary.
  const page = await startStubWeb({ '/': serve(newsArticleHtml()) })
  const rebound = await startStubWeb({ '/': serve(newsArticleHtml()) }, { address: '127.0.0.2', port: page.port })
  try {
    let lookups = 0
    const pageReader = createPageReader({
      publicUrl: PUBLIC_URL,
      allowHosts: [`rebind.test:${page.port}`],
      timeoutMs: 3000,
      resolve: async () => {
        lookups++
        return [{ address: lookups <= 2 ? '127.0.0.1' : '127.0.0.2', family: 4 }]
      },
    })

    const result = await read(pageReader, `http://rebind.test:${page.port}/`)

    expect(result).toMatchObject({ ok: true })
    expect(lookups).toBe(2)
    expect(page.requests.map((request) => [request.path, request.headers.host])).toEqual([
      ['/robots.txt', `rebind.test:${page.port}`],
      ['/', `rebind.test:${page.port}`],
    ])
    expect(rebound.connections()).toBe(0)
  } finally {
    await Promise.all([page.close(), rebound.close()])
  }
})
