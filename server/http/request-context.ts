// Gives every request an id (kept from a well-formed X-Request-Id, else new), a CSP nonce,
// a log context, and one access-log line when the response is done.
import { randomBytes, randomUUID } from 'node:crypto'
import type { RequestHandler } from 'express'
import { type Logger, withLogContext } from '#server/logger.ts'

const REQUEST_ID = /^[\w.:-]{1,64}$/
const QUIET_PATHS = new Set(['/healthz', '/readyz'])

export function requestContext(log: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    res.locals.requestId = requestId
    res.locals.cspNonce = randomBytes(16).toString('base64')
    res.setHeader('X-Request-Id', requestId)
    const started = process.hrtime.bigint()
    res.once('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6
      const path = req.originalUrl.split('?')[0]
      const line = {
        reqId: requestId,
        method: req.method,
        path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
      }
      if (QUIET_PATHS.has(path ?? '') && res.statusCode < 400) log.debug(line, 'request')
      else log.info(line, 'request')
    })
    withLogContext({ reqId: requestId }, next)
  }
}
