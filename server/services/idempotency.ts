// Idempotency-Key's records (server/http/idempotency.ts decides what they mean for HTTP): one per
// account and key, claimed before the request runs, keeping the first answer for 24 hours.
import type { Db } from '#db/database.ts'
import {
  answerIdempotencyKey,
  deleteIdempotencyKey,
  deleteIdempotencyKeyOlderThan,
  findIdempotencyKey,
  type IdempotencyRow,
  insertIdempotencyKey,
} from '#server/repositories/idempotency-keys.ts'

const RETENTION_MS = 24 * 3600 * 1000

export type IdempotencyRecord = IdempotencyRow

export function createIdempotencyService(deps: { db: Db }) {
  const { db } = deps
  return {
    /**
     * Claims the key for a request; when another request holds it (or held it within the retention
     * window), answers that request's record instead. Records past the window count as absent.
     */
    async claim(accountId: string, key: string, requestHash: string): Promise<{ claimed: true } | IdempotencyRecord> {
      await deleteIdempotencyKeyOlderThan(db, accountId, key, new Date(Date.now() - RETENTION_MS))
      if (await insertIdempotencyKey(db, accountId, key, requestHash)) return { claimed: true }
      return findIdempotencyKey(db, accountId, key)
    },
    /** Keeps the answer to replay. Rejects when it cannot be kept (jsonb refuses a "\u0000"). */
    keep: (accountId: string, key: string, answer: { status: number; body: unknown }): Promise<void> =>
      answerIdempotencyKey(db, accountId, key, answer),
    /** Frees the key, so a retry runs again; `onlyUnanswered` leaves a kept answer alone. */
    release: (accountId: string, key: string, options: { onlyUnanswered?: boolean } = {}): Promise<void> =>
      deleteIdempotencyKey(db, accountId, key, options.onlyUnanswered),
  }
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>
