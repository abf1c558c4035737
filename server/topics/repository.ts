// The topics and topic_memory tables: SQL only, the database (or the caller's transaction) first.
// A topic is its keyed hash, its memory one sealed blob plus clear counts; rows come back sealed as
// stored, and the blob's codec (topicMemoryColumn, decision 064) opens it by the stored memory's
// schema. What they mean (merging, what unreadable memory does, the save's transaction) is
// server/topics/store.ts's.
import { type Insertable, type Selectable, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { TopicMemoryTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'
import { UUID } from '#server/text/uuid.ts'
import { StoredMemorySchema } from '#server/vocabulary/memory.ts'

/** What binds a topic's sealed memory to its topic. */
export const topicMemoryData = (topicId: string) => `topic_memory:${topicId}`

/** A topic's memory, sealed as one blob (ciphertext with key_id), bound to its topic. */
export function topicMemoryColumn(ring: KeyRing) {
  return sealedColumn(ring, {
    name: 'topic_memory.ciphertext',
    schema: StoredMemorySchema,
    associatedData: topicMemoryData,
  })
}

export type TopicMemoryColumn = ReturnType<typeof topicMemoryColumn>

export type TopicMemoryRow = Selectable<TopicMemoryTable>

/** The account's topic memory that has not expired by `now`. */
function liveMemoryRows(db: Db, accountId: string, now: Date) {
  return db
    .selectFrom('topics')
    .innerJoin('topic_memory', 'topic_memory.topic_id', 'topics.id')
    .selectAll('topic_memory')
    .where('topics.account_id', '=', accountId)
    .where('topic_memory.expires_at', '>', now)
}

/** The live memory of the account's topic with this hash, as a query: to run, or to nest in another. */
export function liveTopicMemory(db: Db, accountId: string, topicHash: Buffer, now: Date) {
  return liveMemoryRows(db, accountId, now).where('topics.topic_hash', '=', topicHash)
}

/** The live memory of the account's topic with this hash. */
export async function findLiveTopicMemory(
  db: Db,
  accountId: string,
  topicHash: Buffer,
  now: Date,
): Promise<TopicMemoryRow | undefined> {
  return liveTopicMemory(db, accountId, topicHash, now).executeTakeFirst()
}

/** The live memory of the account's topic with this id, with the topic's hash; malformed ids find none. */
export async function findLiveTopicMemoryById(db: Db, accountId: string, topicId: string, now: Date) {
  if (!UUID.test(topicId)) return undefined
  return liveMemoryRows(db, accountId, now)
    .select('topics.topic_hash')
    .where('topics.id', '=', topicId)
    .executeTakeFirst()
}

/** The id of the account's topic with this hash, while it has live memory (nothing sealed is read). */
export async function findLiveTopicId(
  db: Db,
  accountId: string,
  topicHash: Buffer,
  now: Date,
): Promise<string | undefined> {
  const row = await liveTopicMemory(db, accountId, topicHash, now).clearSelect().select('topics.id').executeTakeFirst()
  return row?.id
}

/** Every live topic memory of the account, most recently researched first. */
export async function listLiveTopicMemories(db: Db, accountId: string, now: Date): Promise<TopicMemoryRow[]> {
  return liveMemoryRows(db, accountId, now).orderBy('topic_memory.last_run_at', 'desc').execute()
}

/**
 * The id of the account's topic with this hash, made if the account has none yet (`made`: it then
 * has no memory yet); and its lock, waited for and then held until the transaction ends: one save per
 * topic at a time. A topic made here is locked by the statement that makes it. One that exists is
 * looked up and locked by a second: a statement that found nothing to insert (another made it
 * meanwhile) cannot see it.
 */
export async function lockTopic(trx: Db, accountId: string, topicHash: Buffer): Promise<{ id: string; made: boolean }> {
  const lock = (id: string) => sql`pg_advisory_xact_lock(hashtextextended(${sql.ref(id)}::text, 0))`.as('locked')
  const inserted = await trx
    .with('made', (db) =>
      db
        .insertInto('topics')
        .values({ account_id: accountId, topic_hash: topicHash })
        .onConflict((conflict) => conflict.columns(['account_id', 'topic_hash']).doNothing())
        .returning('id'),
    )
    .selectFrom('made')
    .select(['id', lock('made.id')])
    .executeTakeFirst()
  if (inserted) return { id: inserted.id, made: true }
  const existing = await trx
    .selectFrom('topics')
    .select(['id', lock('topics.id')])
    .where('account_id', '=', accountId)
    .where('topic_hash', '=', topicHash)
    .executeTakeFirstOrThrow()
  return { id: existing.id, made: false }
}

/** The topic's memory row, expired or not. */
export async function getTopicMemory(db: Db, topicId: string): Promise<TopicMemoryRow | undefined> {
  return db.selectFrom('topic_memory').selectAll().where('topic_id', '=', topicId).executeTakeFirst()
}

/** Stores the topic's memory row, replacing the one it had. */
export async function upsertTopicMemory(
  db: Db,
  topicId: string,
  values: Omit<Insertable<TopicMemoryTable>, 'topic_id'>,
): Promise<void> {
  await db
    .insertInto('topic_memory')
    .values({ topic_id: topicId, ...values })
    .onConflict((conflict) => conflict.column('topic_id').doUpdateSet(values))
    .execute()
}

/** Deletes memory past its expiry; returns how many topics lost theirs. */
export async function purgeExpiredMemory(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('topic_memory').where('expires_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
