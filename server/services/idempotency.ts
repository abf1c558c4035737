// The records behind Idempotency-Key (server/http/idempotency.ts decides what they mean for HTTP):
// one per account and key, claimed before the request runs, keeping the first answer for 24 hours.
import type { Db } from '#db/database.ts'

const RETENTION_MS = 24 * 3600 * 1000

export type IdempotencyRecord = { requestHash: string; status: number | null; body: unknown }

export function createIdempotencyService(deps: { db: Db }) {
  const { db } = deps
  const record = (accountId: string, key: string) =>
    db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key)
  return {
    /**
     * Claims the key for a request; when another request holds it (or held it within the retention
     * window), answers that request's record instead. Records past the window count as absent.
     */
    async claim(accountId: string, key: string, requestHash: string): Promise<{ claimed: true } | IdempotencyRecord> {
      await record(accountId, key)
        .where('created_at', '<', new Date(Date.now() - RETENTION_MS))
        .execute()
      const claimed = await db
        .insertInto('idempotency_keys')
        .values({ account_id: accountId, key, request_hash: requestHash, status: null, body: null })
        .onConflict((conflict) => conflict.columns(['account_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst()
      if (claimed) return { claimed: true }
      const first = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status', 'body'])
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow()
      return { requestHash: first.request_hash, status: first.status, body: first.body }
    },
    /** Keeps the answer to replay. Rejects when it cannot be kept (jsonb refuses a "\u0000"). */
    async keep(accountId: string, key: string, answer: { status: number; body: unknown }): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status: answer.status, body: JSON.stringify(answer.body) })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute()
    },
    /** Frees the key, so a retry runs again; `onlyUnanswered` leaves a kept answer alone. */
    async release(accountId: string, key: string, options: { onlyUnanswered?: boolean } = {}): Promise<void> {
      const query = record(accountId, key)
      await (options.onlyUnanswered ? query.where('status', 'is', null) : query).execute()
    },
  }
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>
