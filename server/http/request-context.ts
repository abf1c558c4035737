// Gives every request an id (kept from a well-formed X-Request-Id, else new), a CSP nonce,
// a log context, and one access-log line when the response is done.
import { randomBytes, randomUUID } from 'node:crypto'
import type { RequestHandler } from 'express'
import { type Logger, withLogContext } from '#server/logger.ts'

const REQUEST_ID = /^[\w.:-]{1,64}$/
const QUIET_PATHS = new Set(['/healthz', '/readyz'])
const NONCE_BYTES = 16
/** Nonces drawn from the system's generator at once; a draw per request cost more than the rest here. */
const NONCES_PER_DRAW = 256

/** 128-bit CSP nonces, base64, each from its own bytes of a pooled draw (as crypto.randomUUID pools its). */
export function nonceSource(): () => string {
  let drawn = Buffer.alloc(0)
  let at = 0
  return () => {
    if (at >= drawn.length) {
      drawn = randomBytes(NONCE_BYTES * NONCES_PER_DRAW)
      at = 0
    }
    at += NONCE_BYTES
    return drawn.toString('base64', at - NONCE_BYTES, at)
  }
}

export function requestContext(log: Logger): RequestHandler {
  const nonce = nonceSource()
  return (req, res, next) => {
    const incoming = req.get('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    res.locals.requestId = requestId
    res.locals.cspNonce = nonce()
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
