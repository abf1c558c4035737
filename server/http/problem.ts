// RFC 9457 problem details: the one shape every HTTP error takes.
import type { Duplex } from 'node:stream'
import type { ErrorRequestHandler, Response } from 'express'
import { TooManyStreamsError } from '#server/events/open-streams.ts'
import type { Logger } from '#server/logger.ts'

export type Problem = {
  status: number
  title: string
  type?: string
  detail?: string
  errors?: Array<{ path: string; message: string }>
  [extension: string]: unknown
}

/** Throw from a route or service to answer with a problem. */
export class HttpProblem extends Error {
  readonly problem: Problem
  constructor(problem: Problem) {
    super(problem.detail ?? problem.title)
    this.name = 'HttpProblem'
    this.problem = problem
  }
}

export function sendProblem(res: Response, problem: Problem): void {
  const requestId = res.locals.requestId as string | undefined
  res
    .status(problem.status)
    .type('application/problem+json')
    .json({ type: 'about:blank', ...problem, ...(requestId ? { requestId } : {}) })
}

type BodyParserError = Error & { type?: string; status?: number; limit?: number }

/** Maps anything thrown while handling a request to a problem; internals never reach the client. */
export function problemErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error)
    if (error instanceof HttpProblem) return sendProblem(res, error.problem)
    if (error instanceof TooManyStreamsError) {
      return sendProblem(res, { status: 429, title: 'Too Many Requests', detail: error.message })
    }
    const bodyError = error as BodyParserError
    if (bodyError?.type === 'entity.too.large') {
      return sendProblem(res, {
        status: 413,
        title: 'Payload Too Large',
        detail: `The request body is larger than the limit of ${bodyError.limit} bytes.`,
      })
    }
    if (bodyError?.type === 'entity.parse.failed') {
      return sendProblem(res, { status: 400, title: 'Bad Request', detail: 'The request body is not valid JSON.' })
    }
    if (typeof bodyError?.status === 'number' && bodyError.status >= 400 && bodyError.status < 500) {
      return sendProblem(res, { status: bodyError.status, title: 'Bad Request', detail: bodyError.message })
    }
    log.error({ err: error }, 'unhandled error while serving a request')
    sendProblem(res, {
      status: 500,
      title: 'Internal Server Error',
      detail: 'Something went wrong on our side. Quote the request id if you report it.',
    })
  }
}

/**
 * For the HTTP server's `clientError`: a request Node refuses before Express sees it (headers or URL
 * over the 16 KiB limit, a malformed request line, headers or body not in within their timeouts)
 * still gets a problem, not a bare status line. The socket is then closed whether or not the client
 * reads the answer: one that never does must not keep it open.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
  // A response already under way cannot be replaced; a connection that sent nothing asked nothing.
  const silent = timedOut && (socket as Duplex & { bytesRead?: number }).bytesRead === 0
  if (error.code === 'ECONNRESET' || !socket.writable || started || silent) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const status = tooLarge ? 431 : timedOut ? 408 : 400
  const title = tooLarge ? 'Request Header Fields Too Large' : timedOut ? 'Request Timeout' : 'Bad Request'
  const body = JSON.stringify({
    type: 'about:blank',
    status,
    title,
    detail: tooLarge
      ? 'The URL and headers together are larger than 16 KiB; send long input in a JSON body.'
      : timedOut
        ? 'The request did not arrive in time: send the headers, and the body, without pausing.'
        : 'The request is not valid HTTP.',
  })
  socket.end(
    [
      `HTTP/1.1 ${status} ${title}`,
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
    () => socket.destroy(),
  )
}
