// Pages of runs and feeds, newest first, lose no row created within the cursor row's millisecond: a
// burst of creations lands many rows in one, and the column keeps microseconds that a timestamp read
// back into JavaScript does not.
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createFeeds } from '#server/notify/repository/feeds.ts'
import { listRunRows } from '#server/runs/repository/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief } from '#test/support/runs.ts'

let app: TestApp
beforeAll(async () => {
  // Runs are queued and never worked: their rows hold still.
  app = await startTestApp({ env: { RUN_ROLE: 'web', RATE_LIMIT_RUNS_PER_HOUR: '1000' } })
})
afterAll(() => app.stop())

const ROWS = 9

/** Every page of `list`, two rows at a time, as ids in order. */
async function allPages(list: (cursor?: string) => Promise<Array<{ id: string }>>): Promise<string[]> {
  const seen: string[] = []
  let cursor: string | undefined
  for (let page = 0; page < ROWS + 2; page++) {
    const rows = await list(cursor)
    seen.push(...rows.slice(0, 2).map((row) => row.id))
    if (rows.length <= 2) return seen
    cursor = seen.at(-1)
  }
  throw new Error('the pages never ended')
}

test('runs created within one millisecond are all listed, page after page, newest first', async () => {
  const user = await createTestAccount(app.db)
  for (let i = 0; i < ROWS; i++) {
    const { response } = await postBrief(app.fetch, user.auth, { topic: `keyset run ${i}`, depth: 'quick' })
    expect(response.status).toBe(202)
  }
  // One millisecond, nine microseconds, in the order they were made.
  await sql`update runs set created_at = timestamptz '2026-11-29 10:00:00.123+00' + made.k * interval '1 microsecond'
            from (select id, row_number() over (order by created_at, id) as k from runs where account_id = ${user.account.id}) made
            where runs.id = made.id`.execute(app.db)
  const ids = await allPages((cursor) => listRunRows(app.db, user.account.id, { limit: 2, cursor }))
  expect(new Set(ids).size).toBe(ROWS)
})

test('feeds created within one millisecond are all listed, page after page', async () => {
  const user = await createTestAccount(app.db)
  const topic = await app.db
    .insertInto('topics')
    .values({ account_id: user.account.id, topic_hash: Buffer.from(user.account.id) })
    .returning('id')
    .executeTakeFirstOrThrow()
  const feeds = createFeeds(app.ring)
  for (let i = 0; i < ROWS; i++) {
    const feed = await feeds.insert(app.db, {
      id: randomUUID(),
      accountId: user.account.id,
      topic: `keyset feed ${i}`,
      topicId: topic.id,
      seriesId: null,
      tokenHash: `keyset-${user.account.id}-${i}`,
    })
    await sql`update feeds set created_at = timestamptz '2026-11-29 10:00:00.123+00' + ${i} * interval '1 microsecond' where id = ${feed.id}`.execute(
      app.db,
    )
  }
  const ids = await allPages((cursor) => feeds.listActive(app.db, user.account.id, { limit: 2, after: cursor }))
  expect(new Set(ids).size).toBe(ROWS)
})
