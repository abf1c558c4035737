import type { NextFunction, Request, Response } from 'express'
import type { z } from 'zod'
import { HttpProblem } from '#server/http/problem.ts'

/** A 400 validation problem for one field, in the shape a schema mismatch has. */
export function fieldProblem(field: string, message: string): HttpProblem {
  return new HttpProblem({
    status: 400,
    title: 'Bad Request',
    type: 'https://sextant.dev/problems/validation',
    detail: message,
    errors: [{ path: field, message }],
  })
}

/** Parses input with a zod schema; a mismatch is a 400 listing each bad field. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, what = 'request body'): T {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw new HttpProblem({
    status: 400,
    title: 'Bad Request',
    type: 'https://sextant.dev/problems/validation',
    detail: `The ${what} is not valid.`,
    errors: result.error.issues.map((issue) => ({
      path: issue.path.length > 0 ? issue.path.join('.') : '(root)',
      message: issue.message,
    })),
  })
}

/**
 * For a request that takes no body (a DELETE, "run now", a rotation): a body with anything in it is
 * refused, not silently ignored, since a client that sends one expects it to mean something. No body,
 * or an empty JSON object (what some clients always send), is none.
 */
export function noBody<P>(req: Request<P>, _res: Response, next: NextFunction): void {
  const body: unknown = req.body
  const empty =
    body === undefined ||
    (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)
  if (empty) {
    next()
    return
  }
  next(
    new HttpProblem({
      status: 400,
      title: 'Bad Request',
      type: 'https://sextant.dev/problems/validation',
      detail: `${req.method} ${req.baseUrl}${req.path} takes no request body; send none.`,
      errors: [{ path: '(root)', message: 'Expected no body' }],
    }),
  )
}
