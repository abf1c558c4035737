// The idempotency_keys table: SQL only. One row per account and key, claimed before a request runs
// and holding its first answer (server/services/idempotency.ts says what the rows mean).
import type { Db } from '#db/database.ts'

export type IdempotencyRow = { requestHash: string; status: number | null; body: unknown }

function rowOf(db: Db, accountId: string, key: string) {
  return db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key)
}

/** Deletes the account's row for the key if it was created before `before`. */
export async function deleteIdempotencyKeyOlderThan(db: Db, accountId: string, key: string, before: Date) {
  await rowOf(db, accountId, key).where('created_at', '<', before).execute()
}

/** Inserts an unanswered row; false when the account already has one for the key. */
export async function insertIdempotencyKey(db: Db, accountId: string, key: string, requestHash: string) {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ account_id: accountId, key, request_hash: requestHash, status: null, body: null })
    .onConflict((conflict) => conflict.columns(['account_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst()
  return inserted !== undefined
}

export async function findIdempotencyKey(db: Db, accountId: string, key: string): Promise<IdempotencyRow> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'body'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow()
  return { requestHash: row.request_hash, status: row.status, body: row.body }
}

export async function answerIdempotencyKey(
  db: Db,
  accountId: string,
  key: string,
  answer: { status: number; body: unknown },
) {
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, body: JSON.stringify(answer.body) })
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .execute()
}

/** Deletes the row; `onlyUnanswered` leaves an answered one alone. */
export async function deleteIdempotencyKey(db: Db, accountId: string, key: string, onlyUnanswered = false) {
  const query = rowOf(db, accountId, key)
  await (onlyUnanswered ? query.where('status', 'is', null) : query).execute()
}
