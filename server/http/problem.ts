// RFC 9457 problem details: the one shape every HTTP error takes.
import type { ErrorRequestHandler, Response } from 'express'
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
