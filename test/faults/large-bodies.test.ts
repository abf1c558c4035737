// Huge page form posts, as an attacker sends them: a 64 MB form to /login once froze the server for
// 9 s, and three 128 MB forms at once ran it out of heap. Against a real `node server/main.ts`
// process: the posts are refused from their headers, the process does not grow, and /healthz keeps
// answering while they stream.
import fs from 'node:fs'
import http from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { type SextantProcess, spawnSextant } from '#test/support/process.ts'

const MB = 1024 * 1024

let database: TestDatabase
let app: SextantProcess
let url: string

beforeAll(async () => {
  database = await createTestDatabase()
  app = spawnSextant({ DATABASE_URL: database.url, MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS })
  url = (await app.waitForLog((line) => typeof line.url === 'string')).url as string
}, 90_000)
afterAll(async () => {
  app?.child.kill('SIGTERM')
  await app?.exited
  await database?.drop()
})

function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match?.[1]) * 1024
}

type Sent = { status: number | undefined; sentBytes: number }

/** POSTs `bytes` of form to `path`, writing as fast as the server takes it, until it answers or closes. */
function postLargeForm(path: string, bytes: number, options: { chunked?: boolean; writeBody?: boolean } = {}) {
  const { chunked = false, writeBody = true } = options
  return new Promise<Sent>((resolve) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: new URL(url).origin,
    }
    if (!chunked) headers['Content-Length'] = String(bytes)
    const request = http.request(new URL(path, url), { method: 'POST', headers })
    let status: number | undefined
    let sentBytes = 0
    let answered = false
    const chunk = Buffer.alloc(64 * 1024, 'email=a&password=b&')
    request.on('response', (response) => {
      status = response.statusCode
      answered = true
      response.resume()
    })
    // The server closes the connection instead of reading the rest: a reset here is the point.
    request.on('error', () => {})
    request.on('close', () => resolve({ status, sentBytes }))
    function pump() {
      while (!answered && sentBytes < bytes) {
        sentBytes += chunk.length
        if (!request.write(chunk)) return void request.once('drain', pump)
      }
      request.end()
    }
    if (writeBody) pump()
    else request.flushHeaders()
  })
}

async function healthzMillis(): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${url}/healthz`)
  await response.arrayBuffer()
  expect(response.status).toBe(200)
  return performance.now() - started
}

test('a form larger than 64 KiB is refused with 413 from its headers, before any of it is read', async () => {
  for (const path of ['/login', '/signup', '/trial', '/dashboard', '/login.data']) {
    const { status } = await postLargeForm(path, 64 * MB, { writeBody: false })
    expect(status, path).toBe(413)
  }
})

test('a chunked form (no Content-Length) is refused with 411, a multipart one with 415', async () => {
  expect((await postLargeForm('/login', 64 * MB, { chunked: true, writeBody: false })).status).toBe(411)
  const multipart = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { Origin: new URL(url).origin },
    body: (() => {
      const form = new FormData()
      form.append('email', 'a@b.c')
      return form
    })(),
  })
  expect(multipart.status).toBe(415)
  expect((await multipart.json()).detail).toMatch(/x-www-form-urlencoded/)
})

test('a 64 MB post and then three 128 MB posts at once leave the process small and /healthz answering', async () => {
  const pid = app.child.pid as number
  const before = residentBytes(pid)
  // A client still writing when the server closes may see the reset before the 413: either is fine.
  const single = await postLargeForm('/login', 64 * MB)
  expect([413, undefined]).toContain(single.status)
  expect(single.sentBytes).toBeLessThan(64 * MB)

  let peak = before
  const latencies: number[] = []
  let streaming = true
  const posts = Promise.all([1, 2, 3].map(() => postLargeForm('/login', 128 * MB))).finally(() => {
    streaming = false
  })
  // Probe while the posts are in flight, and a few times after, whatever their speed.
  for (let probe = 0; probe < 40 && (streaming || probe < 5); probe++) {
    latencies.push(await healthzMillis())
    peak = Math.max(peak, residentBytes(pid))
  }
  const results = await posts
  for (const result of results) expect([413, undefined]).toContain(result.status)
  // The process did not take the bodies in: it grew by far less than one of them.
  expect(peak - before).toBeLessThan(64 * MB)
  // Generous for a busy two-core machine; the figure on a quiet one is a few milliseconds.
  expect(Math.max(...latencies)).toBeLessThan(1000)
  expect(await healthzMillis()).toBeLessThan(1000)
}, 60_000)
