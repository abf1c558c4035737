import type { RequestHandler } from 'express'
import { sendProblem } from '#server/http/problem.ts'

/** For a path that exists: any other method gets 405 with Allow. */
export function methodNotAllowed(allowed: string[]): RequestHandler {
  return (req, res) => {
    res.setHeader('Allow', allowed.join(', '))
    sendProblem(res, {
      status: 405,
      title: 'Method Not Allowed',
      detail: `${req.method} is not supported here; use ${allowed.join(' or ')}.`,
    })
  }
}
