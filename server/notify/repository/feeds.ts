// The feeds and run_changes tables: SQL only, the database (or the caller's transaction) first. What a
// feed means (its token, its sealed title, which runs are its entries and how they read) is
// server/notify/feeds/'s.

import type { Insertable, Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { FeedsTable, RunChangesTable } from '#db/schema.ts'
import { after } from '#server/repositories/keyset.ts'
import type { RunRow } from '#server/repositories/runs.ts'
import { UUID } from '#server/text/uuid.ts'

export type FeedRecord = Selectable<FeedsTable>

export async function insertFeed(db: Db, values: Insertable<FeedsTable>): Promise<FeedRecord> {
  return db.insertInto('feeds').values(values).returningAll().executeTakeFirstOrThrow()
}

/**
 * The account's feeds that still work, newest first, `limit` of them after the feed `after` (a page's
 * last id), one more when there is a next page.
 */
export async function listActiveFeeds(
  db: Db,
  accountId: string,
  page: { limit: number; after?: string },
): Promise<FeedRecord[]> {
  let query = db.selectFrom('feeds').selectAll().where('account_id', '=', accountId).where('revoked_at', 'is', null)
  const cursor = page.after && UUID.test(page.after) ? await findActiveFeed(db, accountId, page.after) : undefined
  if (cursor) query = query.where(after('feeds', cursor.id))
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

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

/** Revokes the account's feed; undefined when it has no such working feed (or the id is malformed). */
export async function revokeFeedRow(db: Db, accountId: string, feedId: string): Promise<FeedRecord | undefined> {
  if (!UUID.test(feedId)) return undefined
  return db
    .updateTable('feeds')
    .set({ revoked_at: new Date() })
    .where('id', '=', feedId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** The working feed with this token hash, with its topic's hash when it follows a topic. */
export async function findFeedByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<(FeedRecord & { topic_hash: Buffer | null }) | undefined> {
  return db
    .selectFrom('feeds')
    .leftJoin('topics', 'topics.id', 'feeds.topic_id')
    .selectAll('feeds')
    .select('topics.topic_hash')
    .where('feeds.token_hash', '=', tokenHash)
    .where('feeds.revoked_at', 'is', null)
    .executeTakeFirst()
}

export async function insertRunChanges(db: Db, values: Insertable<RunChangesTable>): Promise<void> {
  await db
    .insertInto('run_changes')
    .values(values)
    .onConflict((conflict) => conflict.column('run_id').doNothing())
    .execute()
}

/** The feed's entries, newest first: rows of the runs table (sealed as stored) and when each ended. */
export type FeedRunRow = Pick<RunRow, 'id' | 'brief_key_id' | 'brief' | 'report_key_id' | 'report' | 'status'> & {
  finished_at: Date
}

function completeRunsWithChanges(db: Db, accountId: string) {
  return db
    .selectFrom('runs')
    .innerJoin('run_changes', 'run_changes.run_id', 'runs.id')
    .select(['runs.id', 'runs.brief_key_id', 'runs.brief', 'runs.report_key_id', 'runs.report', 'runs.status'])
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
