import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, expect, test } from 'vitest'
import { createWindowLimit, type LimitedFront, peakInWindow, startLimitedFront } from '#bench/limited-stubs.ts'
import { startBenchStubs } from '#bench/stubs.ts'
import { STUB_EXA_API_KEY, startStubExa } from '#test/support/stub-exa.ts'

const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closing.length > 0) await closing.pop()?.()
})

function search(url: string, query = 'grid batteries') {
  return fetch(`${url}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': STUB_EXA_API_KEY },
    body: JSON.stringify({ query, numResults: 3, contents: { text: true } }),
  })
}

function chat(baseUrl: string, apiKey = 'sk-test-stub') {
  return fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Topic: heat pumps\nReturn at most 2 queries.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'plan', schema: {} } },
    }),
  })
}

/** Until `check` holds, a few seconds at most: for a state the front reaches, not a duration. */
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await sleep(25)
  expect(check()).toBe(true)
}

test('the window limit lets `limit` through in any window and does not count what it refused', () => {
  const limit = createWindowLimit(20, 1000)
  const first = Array.from({ length: 25 }, (_, i) => limit.admit(1000 + i))
  expect(first.filter((admitted) => !admitted)).toHaveLength(5)
  expect(first.slice(0, 20).every(Boolean)).toBe(true)
  // 999 ms after the first: still inside its window. 1000 ms after it: the first has left.
  expect(limit.admit(1999)).toBe(false)
  expect(limit.admit(2000)).toBe(true)
  expect(limit.admit(2000)).toBe(false)
  expect(limit.admit(2001)).toBe(true)
})

test('the peak counts the most arrivals in any half-open window, in any order', () => {
  expect(peakInWindow([], 1000)).toBe(0)
  // [0, 1000) holds 0 and 999; [999, 1999) holds 999, 1000 and 1500; [1000, 2000) holds 1000, 1500 and 1999.
  expect(peakInWindow([0, 999, 1000, 1500, 1999], 1000)).toBe(3)
  expect(peakInWindow([1999, 1000, 1500, 0, 1999.5], 1000)).toBe(4)
  expect(peakInWindow([3000, 0, 1000, 2000], 1000)).toBe(1)
})

test('search: 25 requests in one second of the stub’s clock get 20 answers and 5 429s with Retry-After: 1', async () => {
  const exa = await startStubExa({ latencyMs: 0 })
  closing.push(() => exa.close())
  let clock = 1_000_000 // the front's own clock: every request lands in the same second, however slow the machine
  const front = await startLimitedFront({
    upstream: exa.url,
    wire: 'exa',
    limit: { kind: 'window', limit: 20, windowMs: 1000 },
    now: () => clock,
  })
  closing.push(() => front.close())

  const responses = await Promise.all(Array.from({ length: 25 }, () => search(front.url)))
  const statuses = responses.map((response) => response.status)
  expect(statuses.filter((status) => status === 200)).toHaveLength(20)
  const limited = responses.filter((response) => response.status === 429)
  expect(limited).toHaveLength(5)
  for (const response of limited) {
    expect(response.headers.get('retry-after')).toBe('1')
    expect(await response.json()).toMatchObject({ tag: 'RATE_LIMIT_EXCEEDED' })
  }
  // The answers are the stub's: it saw the 20 let through, and none of the 429s.
  expect(exa.served).toHaveLength(20)
  expect(front.stats()).toMatchObject({
    arrivals: 25,
    rejected: 5,
    answered: { 200: 20 },
    peakInWindow: 25,
    peakAdmittedInWindow: 20,
  })

  clock += 1000 // a second later the window is empty again
  expect((await search(front.url)).status).toBe(200)
})

/** An upstream that holds every request until the test lets it go: calls stay in flight as long as it needs. */
async function startHeldUpstream() {
  const held: http.ServerResponse[] = []
  const server = http.createServer((request, response) => {
    request.resume()
    held.push(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    release(count = held.length) {
      for (const response of held.splice(0, count)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
      }
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

test('model: a 9th call while 8 are in flight gets 429 with Retry-After: 1; a freed slot takes the next', async () => {
  const upstream = await startHeldUpstream()
  closing.push(() => upstream.close())
  const front: LimitedFront = await startLimitedFront({
    upstream: upstream.url,
    wire: 'openai',
    limit: { kind: 'concurrency', limit: 8 },
  })
  closing.push(() => front.close())
  const baseUrl = `${front.url}/v1`

  const eight = Array.from({ length: 8 }, () => chat(baseUrl))
  await until(() => upstream.held.length === 8)
  expect(front.stats().inFlight).toBe(8)

  const ninth = await chat(baseUrl)
  expect(ninth.status).toBe(429)
  expect(ninth.headers.get('retry-after')).toBe('1')
  expect(await ninth.json()).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } })
  expect(upstream.held).toHaveLength(8) // the 429 never reached the model

  upstream.release(1)
  await until(() => front.stats().inFlight === 7)
  const tenth = chat(baseUrl)
  await until(() => upstream.held.length === 8)
  upstream.release()
  const answered = await Promise.all([...eight, tenth])
  expect(answered.map((response) => response.status)).toEqual(Array(9).fill(200))
  expect(front.stats()).toMatchObject({
    arrivals: 10,
    rejected: 1,
    answered: { 200: 9 },
    peakAtOnce: 9,
    peakAdmittedAtOnce: 8,
  })
})

test('the stub process puts its stubs behind the fronts with limits, and reports what they saw', async () => {
  // Latencies long enough that a model call is still in flight when the next arrives, on any machine.
  const stubs = await startBenchStubs({ modelMs: 3000, searchMs: 0 }, { searchPerSecond: 2, modelConcurrency: 1 })
  closing.push(() => stubs.close())
  expect(await stubs.limitStats()).toMatchObject({ search: { arrivals: 0 }, model: { arrivals: 0 } })

  const first = chat(stubs.env.OPENAI_BASE_URL as string, stubs.env.OPENAI_API_KEY)
  for (let i = 0; i < 100 && (await stubs.limitStats())?.model.inFlight !== 1; i++) await sleep(25)
  const second = await chat(stubs.env.OPENAI_BASE_URL as string, stubs.env.OPENAI_API_KEY)
  expect(second.status).toBe(429)
  expect((await first).status).toBe(200)

  const searches = await Promise.all(Array.from({ length: 5 }, () => search(stubs.env.EXA_BASE_URL as string)))
  const limited = searches.filter((response) => response.status === 429).length
  const stats = await stubs.limitStats()
  // Whatever the machine's speed, the stub process counts what the client saw.
  expect(stats).toMatchObject({
    search: { arrivals: 5, rejected: limited },
    model: { arrivals: 2, rejected: 1, peakAtOnce: 2, peakAdmittedAtOnce: 1 },
    searchesServed: 5 - limited,
    modelServedByKind: { plan: 1 },
  })
  expect(limited).toBeGreaterThanOrEqual(1) // five at once, two a second
  expect(stats?.search.peakAdmittedInWindow).toBeLessThanOrEqual(2)
  // Without limits, the stub process answers null.
  const plain = await startBenchStubs({ modelMs: 0, searchMs: 0 })
  closing.push(() => plain.close())
  expect(await plain.limitStats()).toBeNull()
}, 30_000)
