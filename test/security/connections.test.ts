// The HTTP server holds out against idle, half-sent connections: one address gets at most
// MAX_CONNECTIONS_PER_ADDRESS sockets (others are still served), a request's headers and body must
// arrive within their timeouts, and none of this cuts a long-lived event stream.
import http from 'node:http'
import net from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { notifyAccountChanged } from '#server/repositories/notifications.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp } from '#test/support/app.ts'
import { logIn } from '#test/support/browser-session.ts'
import { openEventStream, waitUntil } from '#test/support/sse-client.ts'

type RawConnection = { socket: net.Socket; received: string; closed: boolean }

/** A TCP connection that sends `text` (a request cut short, typically) and keeps what comes back. */
function rawConnection(port: number, text: string, localAddress?: string): Promise<RawConnection> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress })
    const connection: RawConnection = { socket, received: '', closed: false }
    socket.on('connect', () => {
      socket.write(text)
      resolve(connection)
    })
    socket.on('data', (chunk) => (connection.received += chunk))
    socket.on('error', () => {}) // a refused socket may be reset; 'close' follows
    socket.on('close', () => {
      connection.closed = true
      resolve(connection)
    })
  })
}

/** GET /healthz on a fresh connection from `localAddress` (127.0.0.0/8 is all loopback on Linux). */
function health(port: number, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on('error', reject)
    request.setTimeout(5000, () => request.destroy(new Error('no answer in 5 s')))
  })
}

const HALF_SENT = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n'

test('one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections; the rest are closed at once', async () => {
  const app = await startTestApp({ env: { MAX_CONNECTIONS_PER_ADDRESS: '50' } })
  onTestFinished(() => app.stop())
  const port = Number(new URL(app.url).port)

  const connections = await Promise.all(Array.from({ length: 200 }, () => rawConnection(port, HALF_SENT)))
  onTestFinished(() => {
    for (const connection of connections) connection.socket.destroy()
  })
  const closed = () => connections.filter((connection) => connection.closed).length
  await waitUntil(() => closed() >= 150)
  expect(closed()).toBe(150)
  expect(connections.filter((connection) => connection.closed && connection.received !== '')).toEqual([])

  // Another address is served; the full one is still refused.
  expect(await health(port, '127.0.0.2')).toBe(200)
  const one = await rawConnection(port, HALF_SENT)
  await waitUntil(() => one.closed)

  // Its connections gone, the address is served again.
  for (const connection of connections) connection.socket.destroy()
  await waitUntil(async () => (await health(port, '127.0.0.1').catch(() => 0)) === 200, 10_000)
})

test('a half-sent request is cut at the headers timeout, a body that never ends at the request timeout, and an event stream outlives both', async () => {
  const app = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' } })
  onTestFinished(() => app.stop())
  const port = Number(new URL(app.url).port)
  const user = await createTestAccount(app.db)
  const cookie = await logIn(app.url, user.email, user.password)
  const stream = await openEventStream(new URL('/dashboard/events', app.url), { Cookie: cookie })
  onTestFinished(() => stream.abort())
  const lists = () => stream.messages.filter((message) => message.event === 'runs').length
  await stream.waitFor(() => lists() === 1)

  const silent = await rawConnection(port, '')
  const half = await rawConnection(port, HALF_SENT)
  const slowBody = await rawConnection(
    port,
    [
      'POST /api/briefs HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${user.key}`,
      'Content-Type: application/json',
      'Content-Length: 100',
      '',
      '{"topic": "never fin',
    ].join('\r\n'),
  )
  await waitUntil(() => silent.closed && half.closed && slowBody.closed)
  expect(silent.received).toBe('') // nothing asked, nothing answered
  expect(half.received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
  expect(half.received).toContain('application/problem+json')
  expect(slowBody.received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)

  // The stream was open before all of them and is still live.
  expect(stream.closed).toBe(false)
  await notifyAccountChanged(app.db, user.account.id)
  await stream.waitFor(() => lists() === 2)
  expect(stream.error).toBeUndefined()
})
