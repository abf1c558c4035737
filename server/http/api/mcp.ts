// MCP over HTTP. /api/mcp is Streamable HTTP, stateless: each POST gets a fresh server bound to the
// caller, so any instance answers. /api/mcp/sse is the legacy HTTP+SSE transport: its session lives
// in the process that opened it, and only the account that opened it may post to it.
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { type RequestHandler, type Response, Router } from 'express'
import { z } from 'zod'
import type { Config } from '#server/config.ts'
import { streamPrincipal } from '#server/events/stream-principals.ts'
import { type ApiContract, bodyProblems, problem, responses, tooManyStreams } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { principalOf, requesterOf } from '#server/http/api-auth.ts'
import { sendProblem } from '#server/http/problem.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/http/rate-limit.ts'
import type { LimitDecision, Limiter } from '#server/limits/limiter.ts'
import { limitRefusalMessage } from '#server/limits/refusal.ts'
import { createMcpServer, type McpCaller } from '#server/mcp/server.ts'
import type { WebServices } from '#server/services.ts'

export const MCP_MESSAGES_PATH = '/api/mcp/messages'

const otherOrigin = problem('A browser request from another origin.')
// The MCP spec has protocol errors answered as JSON-RPC errors, not problems; the extension says so.
const jsonRpcError = (description: string) => ({ description, 'x-jsonrpc-error': true })
const jsonRpcMessage = (description: string) => ({
  required: true,
  content: { 'application/json': { schema: { type: 'object' as const, description } } },
})

export const mcpContract: ApiContract = {
  '/api/mcp': {
    post: {
      operationId: 'mcpStreamableHttp',
      tags: ['mcp'],
      summary: 'MCP over Streamable HTTP (stateless): JSON-RPC messages for the nine Sextant tools',
      description:
        'The Model Context Protocol endpoint for Claude Desktop, Cursor and other MCP clients. Tools: research_brief, ' +
        'get_run_status, get_run_report, get_topic_memory, get_topic_delta, compare_topics, search_memory, ' +
        'list_frameworks, export_topic (tools/list describes them). Each tools/call counts against 120 calls per hour per key.',
      requestBody: jsonRpcMessage('A JSON-RPC 2.0 message or batch.'),
      responses: {
        '200': { description: 'JSON-RPC responses, as JSON or an event stream.' },
        '202': { description: 'Accepted (notifications).' },
        '400': jsonRpcError('Not a valid JSON-RPC message.'),
        '401': responses.unauthorized,
        '406': jsonRpcError('The client must accept both application/json and text/event-stream.'),
        '403': otherOrigin,
        '429': responses.tooManyRequests,
        ...bodyProblems,
      },
    },
  },
  '/api/mcp/sse': {
    get: {
      operationId: 'mcpSseStream',
      tags: ['mcp'],
      summary: 'MCP over the legacy HTTP+SSE transport: opens a session stream',
      description:
        'The first event (`endpoint`) names the URL to POST messages to; the session lives as long as this stream.',
      responses: {
        '200': {
          description: 'The session event stream.',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        '401': responses.unauthorized,
        '403': otherOrigin,
        '429': tooManyStreams,
      },
    },
  },
  [MCP_MESSAGES_PATH]: {
    post: {
      operationId: 'mcpSseMessage',
      tags: ['mcp'],
      summary: 'A JSON-RPC message for an open MCP SSE session (`?sessionId=` from the endpoint event)',
      requestParams: { query: z.object({ sessionId: z.string() }) },
      requestBody: jsonRpcMessage('A JSON-RPC 2.0 message.'),
      responses: {
        '202': { description: 'Accepted; the answer arrives on the session stream.' },
        '401': responses.unauthorized,
        '403': otherOrigin,
        '404': problem('No open session with this id for this account.'),
        '429': responses.tooManyRequests,
        ...bodyProblems,
      },
    },
  },
}

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/

/**
 * A page on another site must not drive the MCP server through the browser. The Origin is compared
 * with where this server is reached (PUBLIC_URL, or a loopback name), never with the Host header: a
 * page that rebinds its own name to 127.0.0.1 chooses the Host too, and it would always match.
 */
function allowedOrigins(config: Pick<Config, 'PUBLIC_URL'>): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin')
    if (!origin || origin === new URL(config.PUBLIC_URL).origin || LOOPBACK_ORIGIN.test(origin)) return next()
    sendProblem(res, {
      status: 403,
      title: 'Forbidden',
      detail: `MCP requests from the origin ${origin} are not allowed.`,
    })
  }
}

function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body]
  return messages.filter((message) => (message as { method?: unknown } | null)?.method === 'tools/call').length
}

// Until server/mcp takes WebServices (its own part of issue 19), the object start.ts passes carries
// what it still reads; the cast goes when that lands.

export function mcpRoutes(services: WebServices): Router {
  const router = Router()
  const sessions = new Map<string, { transport: SSEServerTransport; accountId: string }>()

  const ourOriginIfAny = allowedOrigins(services.config)

  function caller(res: Response): McpCaller {
    const principal = principalOf(res)
    return { accountId: principal.accountId, requester: requesterOf(principal), visitor: principal.visitor }
  }

  // Tool calls count per API key (spec 8) and per account, all its keys together, so minting keys
  // does not multiply the allowance. The demo key is one key shared by every visitor: it counts per
  // visitor account, which is per address. Listing tools and the handshake are free.
  const limitToolCalls: RequestHandler = async (req, res, next) => {
    const calls = toolCalls(req.body)
    if (calls === 0) return next()
    const principal = principalOf(res)
    const limits: Array<[Limiter, string]> = []
    if (principal.keyId && !principal.demo) limits.push([services.limits.mcp, principal.keyId])
    limits.push([services.limits.mcpAccount, principal.accountId])
    for (let i = 0; i < calls; i++) {
      const counted: Array<[Limiter, string, LimitDecision]> = []
      for (const [limiter, subject] of limits) {
        const decision = await limiter.check(subject)
        if (!decision.allowed) {
          await Promise.all(
            counted.map(([earlier, earlierSubject, earlierDecision]) =>
              earlier.refund(earlierSubject, earlierDecision),
            ),
          )
          return sendRateLimited(res, decision, limitRefusalMessage(decision, { operator: principal.operator }))
        }
        counted.push([limiter, subject, decision])
        if (i === calls - 1) setRateLimitHeaders(res, decision)
      }
    }
    next()
  }

  router.post('/', ourOriginIfAny, limitToolCalls, async (req, res) => {
    const server = createMcpServer(services, caller(res))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(req, res, req.body)
  })
  // Stateless: no standalone GET stream and no session to DELETE.
  router.all('/', methodNotAllowed(['POST']))

  router.get('/sse', ourOriginIfAny, async (_req, res) => {
    // Counted with the key's other event streams, and closed when the key is revoked.
    const signal = services.live.admit(streamPrincipal.api(principalOf(res)), res)
    const transport = new SSEServerTransport(MCP_MESSAGES_PATH, res)
    const server = createMcpServer(services, caller(res))
    sessions.set(transport.sessionId, { transport, accountId: principalOf(res).accountId })
    res.on('close', () => {
      sessions.delete(transport.sessionId)
      void server.close()
    })
    await server.connect(transport)
    // The transport ends the response itself, so nothing it sends later is written after the end.
    if (signal.aborted) void transport.close()
    else signal.addEventListener('abort', () => void transport.close(), { once: true })
  })
  router.all('/sse', methodNotAllowed(['GET']))

  router.post('/messages', ourOriginIfAny, async (req, res, next) => {
    const session = sessions.get(String(req.query.sessionId ?? ''))
    if (!session || session.accountId !== principalOf(res).accountId) {
      return sendProblem(res, {
        status: 404,
        title: 'Not Found',
        detail: 'No open MCP SSE session with that sessionId here. Open one with GET /api/mcp/sse (or use /api/mcp).',
      })
    }
    await limitToolCalls(req, res, async () => {
      await session.transport.handlePostMessage(req, res, req.body).catch(next)
    })
  })
  router.all('/messages', methodNotAllowed(['POST']))
  return router
}
