// Request bodies of the API: JSON only, at most 64 KiB. Everything else is a clear 4xx.
import express, { type RequestHandler } from 'express'
import { sendProblem } from '#server/http/problem.ts'

export const BODY_LIMIT_BYTES = 64 * 1024

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.get('content-length')
  return (length !== undefined && length !== '0') || req.get('transfer-encoding') !== undefined
}

const requireJson: RequestHandler = (req, res, next) => {
  if (!hasBody(req) || req.is('application/json') || req.is('+json')) return next()
  sendProblem(res, {
    status: 415,
    title: 'Unsupported Media Type',
    detail: `Send the request body as JSON with Content-Type: application/json (got ${req.get('content-type') ?? 'no Content-Type'}).`,
  })
}

export function jsonBody(): RequestHandler[] {
  return [requireJson, express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json', '+json'] })]
}
