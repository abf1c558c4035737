// A webhook receiver on 127.0.0.1: records every POST (path, headers, raw body, when) and answers
// with the status its path is set to (204 unless told otherwise), or a list of statuses in turn.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = { path: string; headers: Record<string, string>; body: string; at: number }

export type WebhookReceiver = {
  url: string
  port: number
  received: Received[]
  /** The status each request to `path` gets, in turn; the last one repeats. */
  answer(path: string, ...statuses: number[]): void
  /** Waits (bounded) until `count` requests matched. */
  waitFor(match: (request: Received) => boolean, count?: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: Received[] = []
  const answers = new Map<string, number[]>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = req.url ?? '/'
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]))
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      const queue = answers.get(path) ?? [204]
      const status = queue.length > 1 ? (queue.shift() as number) : (queue[0] as number)
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    answer(path, ...statuses) {
      answers.set(path, statuses)
    },
    async waitFor(match, count = 1, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs
      for (;;) {
        const matched = received.filter(match)
        if (matched.length >= count) return matched
        if (performance.now() > deadline)
          throw new Error(`the receiver got ${matched.length} matching requests, wanted ${count}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
