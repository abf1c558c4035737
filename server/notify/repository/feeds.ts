// The feeds and run_changes tables: SQL only, the database (or the caller's transaction) first. A
// feed's title (the topic's name when it was made) is sealed, bound to its row: the statements that
// write or read it are createFeeds', built from the key ring, and give feeds with it opened (decision
// 064). What a feed means (its token, which runs are its entries and how they read) is
// server/notify/feeds/'s.

import type { Insertable, Selectable } from 'kysely'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { FeedsTable, RunChangesTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'
import type { Feed } from '#server/notify/contract.ts'
import { after } from '#server/repositories/keyset.ts'
import { UUID } from '#server/text/uuid.ts'

type FeedRecord = Selectable<FeedsTable>

/** What binds a feed's sealed title to its row. */
export const titleData = (feedId: string) => `feed_title:${feedId}`

/** A feed to make: the topic's name is sealed as its title; only the token's hash is stored. */
export type NewFeed = {
  id: string
  accountId: string
  topic: string
  topicId: string | null
  seriesId: string | null
  tokenHash: string
}

/** A working feed found by its token: whose it is and, when it follows a topic, the topic's hash. */
export type TokenFeed = Feed & { accountId: string; topicHash: Buffer | null }

/** The statements that write or read a feed's sealed title, with its codec built once from the ring. */
export function createFeeds(ring: KeyRing) {
  const title = sealedColumn(ring, { name: 'feeds.title', schema: z.string(), associatedData: titleData })
  const feed = (row: FeedRecord): Feed => ({
    id: row.id,
    topic: title.open({ keyId: row.title_key_id, ciphertext: row.title }, row.id),
    topicId: row.topic_id,
    seriesId: row.series_id,
    createdAt: row.created_at,
  })
  return {
    async insert(db: Db, input: NewFeed): Promise<Feed> {
      const sealed = title.seal(input.topic, input.id)
      const values: Insertable<FeedsTable> = {
        id: input.id,
        account_id: input.accountId,
        topic_id: input.topicId,
        series_id: input.seriesId,
        token_hash: input.tokenHash,
        title_key_id: sealed.keyId,
        title: sealed.ciphertext,
      }
      return feed(await db.insertInto('feeds').values(values).returningAll().executeTakeFirstOrThrow())
    },

    /**
     * The account's feeds that still work, newest first, `limit` of them after the feed `after` (a
     * page's last id), one more when there is a next page.
     */
    async listActive(db: Db, accountId: string, page: { limit: number; after?: string }): Promise<Feed[]> {
      let query = db.selectFrom('feeds').selectAll().where('account_id', '=', accountId).where('revoked_at', 'is', null)
      const cursor = page.after && UUID.test(page.after) ? await findActiveFeed(db, accountId, page.after) : undefined
      if (cursor) query = query.where(after('feeds', cursor.id))
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit + 1)
        .execute()
      return rows.map(feed)
    },

    /** Revokes the account's feed; undefined when it has no such working feed (or the id is malformed). */
    async revoke(db: Db, accountId: string, feedId: string): Promise<Feed | undefined> {
      if (!UUID.test(feedId)) return undefined
      const row = await db
        .updateTable('feeds')
        .set({ revoked_at: new Date() })
        .where('id', '=', feedId)
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst()
      return row && feed(row)
    },

    /** The working feed with this token hash. */
    async findByTokenHash(db: Db, tokenHash: string): Promise<TokenFeed | undefined> {
      const row = await db
        .selectFrom('feeds')
        .leftJoin('topics', 'topics.id', 'feeds.topic_id')
        .selectAll('feeds')
        .select('topics.topic_hash')
        .where('feeds.token_hash', '=', tokenHash)
        .where('feeds.revoked_at', 'is', null)
        .executeTakeFirst()
      return row && { ...feed(row), accountId: row.account_id, topicHash: row.topic_hash }
    },
  }
}

export type Feeds = ReturnType<typeof createFeeds>

async function findActiveFeed(db: Db, accountId: string, feedId: string): Promise<FeedRecord | undefined> {
  return db
    .selectFrom('feeds')
    .selectAll()
    .where('id', '=', feedId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
}

export async function countActiveFeeds(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('feeds')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function insertRunChanges(db: Db, values: Insertable<RunChangesTable>): Promise<void> {
  await db
    .insertInto('run_changes')
    .values(values)
    .onConflict((conflict) => conflict.column('run_id').doNothing())
    .execute()
}

/** The feed's entries, newest first: the runs and when each ended (their reports are the runs module's to open). */
export type FeedRunRow = { id: string; finished_at: Date }

function completeRunsWithChanges(db: Db, accountId: string) {
  return db
    .selectFrom('runs')
    .innerJoin('run_changes', 'run_changes.run_id', 'runs.id')
    .select('runs.id')
    .select((eb) => eb.ref('runs.finished_at').$notNull().as('finished_at'))
    .where('runs.account_id', '=', accountId)
    .where('runs.status', '=', 'complete')
    .where('runs.finished_at', 'is not', null)
}

/** The topic's complete runs whose delta had something new, updated or contradicted. */
export async function listTopicFeedRuns(
  db: Db,
  accountId: string,
  topicHash: Buffer,
  limit: number,
): Promise<FeedRunRow[]> {
  return completeRunsWithChanges(db, accountId)
    .where('runs.topic_hash', '=', topicHash)
    .where('run_changes.changes', '>', 0)
    .orderBy('runs.finished_at', 'desc')
    .limit(limit)
    .execute()
}

/** The series' complete runs that were told (every one with notify 'always'; those with changes otherwise). */
export async function listSeriesFeedRuns(
  db: Db,
  accountId: string,
  seriesId: string,
  limit: number,
): Promise<FeedRunRow[]> {
  return completeRunsWithChanges(db, accountId)
    .where('runs.series_id', '=', seriesId)
    .where('run_changes.told', '=', true)
    .orderBy('runs.finished_at', 'desc')
    .limit(limit)
    .execute()
}
