// A stand-in for Slack's Web API at `<url>/api/` (pass as SLACK_API_URL): chat.postMessage with the
// real wire format. It checks the bearer bot token, answers { ok, ts, ... } or { ok: false, error },
// rate limits on demand (HTTP 429 with Retry-After, as Slack does), and records every call.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type StubSlackMessage = { channel: string; threadTs: string | undefined; text: string; ts: string; at: number }
export type StubSlackCall = { method: string; token: string | undefined; status: number; at: number }

export type StubSlack = {
  /** SLACK_API_URL: ends with /api/. */
  apiUrl: string
  /** Messages posted, in the order they arrived. */
  messages: StubSlackMessage[]
  /** Every call, rate-limited and refused ones included. */
  calls: StubSlackCall[]
  /** The next `times` calls get 429 with Retry-After: `retryAfterSeconds`. */
  rateLimitNext: (times: number, retryAfterSeconds: number) => void
  /** Resolves with the thread's messages once it has `count` (or throws after the timeout). */
  waitForThread: (threadTs: string, count: number, timeoutMs?: number) => Promise<StubSlackMessage[]>
  close: () => Promise<void>
}

export async function startStubSlack(options: { tokens: string[] }): Promise<StubSlack> {
  const messages: StubSlackMessage[] = []
  const calls: StubSlackCall[] = []
  let rateLimited = 0
  let retryAfter = 1
  let clock = 1_763_700_000

  const server = http.createServer(async (req, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const method = new URL(req.url ?? '/', 'http://stub').pathname.replace(/^\/api\//, '')
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const answer = (status: number, body: object, headers: Record<string, string> = {}) => {
      calls.push({ method, token, status, at: Date.now() })
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body))
    }
    if (req.method !== 'POST' || method !== 'chat.postMessage')
      return answer(404, { ok: false, error: 'unknown_method' })
    if (rateLimited > 0) {
      rateLimited -= 1
      return answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) })
    }
    if (!token) return answer(200, { ok: false, error: 'not_authed' })
    if (!options.tokens.includes(token)) return answer(200, { ok: false, error: 'invalid_auth' })
    let body: { channel?: string; thread_ts?: string; text?: string }
    try {
      body = JSON.parse(raw)
    } catch {
      return answer(200, { ok: false, error: 'invalid_json' })
    }
    if (!body.channel) return answer(200, { ok: false, error: 'channel_not_found' })
    if (!body.text) return answer(200, { ok: false, error: 'no_text' })
    if (body.text.length > 40_000) return answer(200, { ok: false, error: 'msg_too_long' })
    clock += 1
    const ts = `${clock}.000100`
    messages.push({ channel: body.channel, threadTs: body.thread_ts, text: body.text, ts, at: Date.now() })
    answer(200, { ok: true, channel: body.channel, ts, message: { type: 'message', text: body.text, ts } })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    messages,
    calls,
    rateLimitNext(times, seconds) {
      rateLimited = times
      retryAfter = seconds
    },
    async waitForThread(threadTs, count, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs
      for (;;) {
        const thread = messages.filter((message) => message.threadTs === threadTs)
        if (thread.length >= count) return thread
        if (performance.now() > deadline) {
          throw new Error(
            `thread ${threadTs} has ${thread.length} messages, wanted ${count}: ${JSON.stringify(thread)}`,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
