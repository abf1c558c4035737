// Idempotency-Key for POSTs that start work: the same key and body within 24 hours replays the first
// response; the same key with another body is a 422; a retry while the first is running is a 409.
import type { RequestHandler } from 'express'
import type { Db } from '#db/database.ts'
import { sha256 } from '#server/auth/secrets.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { sendProblem } from '#server/http/problem.ts'

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const RETENTION_MS = 24 * 3600 * 1000

export function idempotent(db: Db): RequestHandler {
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
    const requestHash = sha256(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? null)}`)

    // Records older than the retention window count as absent.
    await db
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('created_at', '<', new Date(Date.now() - RETENTION_MS))
      .execute()
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ account_id: accountId, key, request_hash: requestHash, status: null, body: null })
      .onConflict((conflict) => conflict.columns(['account_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst()

    if (!claimed) {
      const first = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow()
      if (first.request_hash !== requestHash) {
        return sendProblem(res, {
          status: 422,
          title: 'Unprocessable Content',
          detail: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        })
      }
      if (first.status === null) {
        res.setHeader('Retry-After', '1')
        return sendProblem(res, {
          status: 409,
          title: 'Conflict',
          detail: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
        })
      }
      res.setHeader('Idempotent-Replayed', 'true')
      return res.status(first.status).json(first.body)
    }

    // Keep the first response. A server error, a conflict or a rate limit releases the key so a
    // retry can run: none of them says anything about the request itself.
    const json = res.json.bind(res)
    res.json = (body: unknown) => {
      const status = res.statusCode
      const record =
        status >= 500 || status === 409 || status === 429
          ? db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key)
          : db
              .updateTable('idempotency_keys')
              .set({ status, body: JSON.stringify(body) })
              .where('account_id', '=', accountId)
              .where('key', '=', key)
      const release = () =>
        db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute()
      record.execute().then(
        () => json(body),
        () => {
          // The answer stands; only keeping it failed (jsonb refuses a "\u0000" the body may quote).
          // Passing the error on would answer a second time, as an HTML stack trace: release the key
          // instead, so a retry runs again, and answer.
          release().catch(() => {})
          json(body)
        },
      )
      return res
    }
    res.once('close', () => {
      // The client went away or the handler failed before answering: release the key.
      if (!res.writableEnded) {
        void db
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', accountId)
          .where('key', '=', key)
          .where('status', 'is', null)
          .execute()
      }
    })
    next()
  }
}
