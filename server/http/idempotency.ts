// Idempotency-Key for POSTs that start work: the same key and body within 24 hours replays the first
// response; the same key with another body is a 422; a retry while the first is running is a 409.
// The records themselves are services.idempotency's (server/services/idempotency.ts).
import type { RequestHandler } from 'express'
import { sha256 } from '#server/crypto/secrets.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { sendProblem } from '#server/http/problem.ts'
import type { Logger } from '#server/logger.ts'
import type { IdempotencyService } from '#server/services/idempotency.ts'

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

export function idempotent(idempotency: IdempotencyService, log: Logger): RequestHandler {
  return async (req, res, next) => {
    const key = req.get('idempotency-key')
    if (key === undefined) return next()
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      return sendProblem(res, {
        status: 400,
        title: 'Bad Request',
        detail: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
      })
    }
    const { accountId } = principalOf(res)
    // The path as requested, whichever router it is mounted in (the same string as before mounting).
    const path = req.originalUrl.split('?')[0]
    const requestHash = sha256(`${req.method} ${path}\n${JSON.stringify(req.body ?? null)}`)

    const claim = await idempotency.claim(accountId, key, requestHash)
    if (!('claimed' in claim)) {
      if (claim.requestHash !== requestHash) {
        return sendProblem(res, {
          status: 422,
          title: 'Unprocessable Content',
          detail: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        })
      }
      if (claim.status === null) {
        res.setHeader('Retry-After', '1')
        return sendProblem(res, {
          status: 409,
          title: 'Conflict',
          detail: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
        })
      }
      res.setHeader('Idempotent-Replayed', 'true')
      return res.status(claim.status).json(claim.body)
    }

    // Releasing happens after (or instead of) the answer, where nothing would catch a failure: an
    // unhandled rejection stops the process. Until the record expires, retries with the key get 409.
    const releaseOrLog = (options?: { onlyUnanswered: true }) =>
      idempotency
        .release(accountId, key, options)
        .catch((error: unknown) => log.error({ err: error }, 'could not release an Idempotency-Key'))
    // Keep the first response. A server error, a conflict or a rate limit releases the key so a
    // retry can run: none of them says anything about the request itself.
    const json = res.json.bind(res)
    res.json = (body: unknown) => {
      const status = res.statusCode
      const record =
        status >= 500 || status === 409 || status === 429
          ? idempotency.release(accountId, key)
          : idempotency.keep(accountId, key, { status, body })
      record.then(
        () => json(body),
        () => {
          // The answer stands; only keeping it failed (jsonb refuses a "\u0000" the body may quote).
          // Passing the error on would answer a second time, as an HTML stack trace: release the key
          // instead, so a retry runs again, and answer.
          void releaseOrLog()
          json(body)
        },
      )
      return res
    }
    res.once('close', () => {
      // The client went away or the handler failed before answering: release the key.
      if (!res.writableEnded) void releaseOrLog({ onlyUnanswered: true })
    })
    next()
  }
}
