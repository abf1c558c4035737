// The one-off step that finishes migration 20261122090000_sealed_briefs, which cannot: it needs the
// key ring. At boot, after the migrations and before any work, it seals what the renamed `legacy_*`
// columns still hold in the clear (briefs, errors, event data, notices; topic keys become hashes),
// empties them, and takes the text out of mention jobs queued before the upgrade. It works in
// batches, one process at a time (an advisory lock), and records in `settings` when it is done, so
// later boots cost one read. The migration renamed the clear columns, so nothing writes them after it.
// It knows every table's sealed columns (research, chat, jobs), so it sits beside start.ts, above them.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'
import { slackMentionText } from '#server/chat/mention.ts'
import { receiptData } from '#server/chat/repository/receipts.ts'
import { type KeyRing, type Sealed, sealJson } from '#server/crypto/key-ring.ts'
import { JOBS_SCHEMA } from '#server/jobs/boss.ts'
import { GITHUB_MENTION, SLACK_MENTION } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import { noticeData } from '#server/notify/repository/deliveries.ts'
import { readSetting } from '#server/repositories/settings.ts'
import { eventData } from '#server/runs/repository/event-data.ts'
import { briefData, errorData } from '#server/runs/repository/runs.ts'
import { seriesBriefData } from '#server/series/repository.ts'
import type { TopicIndex } from '#server/topics/topic-index.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

const DONE = 'legacy_rows_sealed_at'
const BATCH = 500

type Context = { db: Db; ring: KeyRing; topicIndex: TopicIndex }

/** Seals every clear row the upgrade left; returns how many rows of each kind it sealed. */
export async function sealLegacyRows(context: Context & { log: Logger }): Promise<Record<string, number> | undefined> {
  if (await readSetting(context.db, DONE)) return undefined
  // One connection: the advisory lock is held by the session that does the work.
  return context.db.connection().execute(async (db) => {
    await sql`select pg_advisory_lock(hashtextextended('sextant:seal-legacy', 0))`.execute(db)
    try {
      if (await readSetting(db, DONE)) return undefined // another process did it while this one waited
      const inner = { ...context, db }
      const sealed = {
        topics: await sealTopics(inner),
        runs: await sealRuns(inner),
        series: await sealSeries(inner),
        runEvents: await sealRunEvents(inner),
        deliveries: await sealNotices(inner),
        mentionJobs: await sealMentionJobs(inner),
      }
      await db
        .insertInto('settings')
        .values({ key: DONE, value: JSON.stringify(new Date().toISOString()) })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute()
      if (Object.values(sealed).some((count) => count > 0)) {
        context.log.info({ sealed }, 'sealed what the database held in the clear before this version')
      }
      return sealed
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('sextant:seal-legacy', 0))`.execute(db)
    }
  })
}

/** Runs `batch` until it reports a short batch; each call empties the legacy columns it read. */
async function inBatches(batch: () => Promise<number>): Promise<number> {
  let total = 0
  for (;;) {
    const count = await batch()
    total += count
    if (count < BATCH) return total
  }
}

const keyIds = (sealed: Array<Sealed | undefined>) => sealed.map((value) => value?.keyId ?? null)
const ciphertexts = (sealed: Array<Sealed | undefined>) => sealed.map((value) => value?.ciphertext ?? null)

function sealTopics({ db, topicIndex }: Context): Promise<number> {
  return inBatches(async () => {
    const { rows } = await sql<{ id: string; account_id: string; legacy_topic_key: string }>`
      select id, account_id, legacy_topic_key from topics where legacy_topic_key is not null limit ${BATCH}`.execute(db)
    if (rows.length === 0) return 0
    await sql`
      update topics set topic_hash = v.hash, legacy_topic_key = null
      from unnest(${rows.map((row) => row.id)}::uuid[],
        ${rows.map((row) => topicIndex.hash(row.account_id, row.legacy_topic_key))}::bytea[]) as v(id, hash)
      where topics.id = v.id`.execute(db)
    return rows.length
  })
}

function sealRuns({ db, ring, topicIndex }: Context): Promise<number> {
  return inBatches(async () => {
    const { rows } = await sql<{
      id: string
      account_id: string
      legacy_topic_key: string | null
      legacy_brief: unknown
      legacy_error: unknown
    }>`
      select id, account_id, legacy_topic_key, legacy_brief, legacy_error from runs
      where legacy_topic_key is not null or legacy_brief is not null or legacy_error is not null
      limit ${BATCH}`.execute(db)
    if (rows.length === 0) return 0
    const briefs = rows.map((row) =>
      row.legacy_brief === null ? undefined : sealJson(ring, row.legacy_brief, briefData(row.id)),
    )
    const errors = rows.map((row) =>
      row.legacy_error === null ? undefined : sealJson(ring, row.legacy_error, errorData(row.id)),
    )
    const hashes = rows.map((row) =>
      row.legacy_topic_key === null ? null : topicIndex.hash(row.account_id, row.legacy_topic_key),
    )
    await sql`
      update runs set
        topic_hash = coalesce(v.topic_hash, runs.topic_hash),
        brief_key_id = coalesce(v.brief_key_id, runs.brief_key_id), brief = coalesce(v.brief, runs.brief),
        error_key_id = coalesce(v.error_key_id, runs.error_key_id), error = coalesce(v.error, runs.error),
        legacy_topic_key = null, legacy_brief = null, legacy_error = null
      from unnest(${rows.map((row) => row.id)}::uuid[], ${hashes}::bytea[],
        ${keyIds(briefs)}::text[], ${ciphertexts(briefs)}::bytea[],
        ${keyIds(errors)}::text[], ${ciphertexts(errors)}::bytea[])
        as v(id, topic_hash, brief_key_id, brief, error_key_id, error)
      where runs.id = v.id`.execute(db)
    return rows.length
  })
}

function sealSeries({ db, ring }: Context): Promise<number> {
  return inBatches(async () => {
    const { rows } = await sql<{ id: string; legacy_brief: unknown }>`
      select id, legacy_brief from series where legacy_brief is not null limit ${BATCH}`.execute(db)
    if (rows.length === 0) return 0
    const briefs = rows.map((row) => sealJson(ring, row.legacy_brief, seriesBriefData(row.id)))
    await sql`
      update series set brief_key_id = v.key_id, brief = v.brief, legacy_brief = null
      from unnest(${rows.map((row) => row.id)}::uuid[], ${keyIds(briefs)}::text[], ${ciphertexts(briefs)}::bytea[])
        as v(id, key_id, brief)
      where series.id = v.id`.execute(db)
    return rows.length
  })
}

function sealRunEvents({ db, ring }: Context): Promise<number> {
  return inBatches(async () => {
    const { rows } = await sql<{ id: string; run_id: string; type: string; legacy_data: Record<string, unknown> }>`
      select id, run_id, type, legacy_data from run_events where legacy_data is not null
      order by id limit ${BATCH}`.execute(db)
    if (rows.length === 0) return 0
    // As new events: no data, nothing sealed.
    const data = rows.map((row) =>
      Object.keys(row.legacy_data).length > 0
        ? sealJson(ring, row.legacy_data, eventData(row.run_id, row.type))
        : undefined,
    )
    await sql`
      update run_events set data_key_id = v.key_id, data = v.data, legacy_data = null
      from unnest(${rows.map((row) => row.id)}::bigint[], ${keyIds(data)}::text[], ${ciphertexts(data)}::bytea[])
        as v(id, key_id, data)
      where run_events.id = v.id`.execute(db)
    return rows.length
  })
}

function sealNotices({ db, ring }: Context): Promise<number> {
  return inBatches(async () => {
    const { rows } = await sql<{ id: string; legacy_notice: string }>`
      select id, legacy_notice from deliveries where legacy_notice is not null limit ${BATCH}`.execute(db)
    if (rows.length === 0) return 0
    const notices = rows.map((row) => sealJson(ring, row.legacy_notice, noticeData(row.id)))
    await sql`
      update deliveries set notice_key_id = v.key_id, notice = v.notice, legacy_notice = null
      from unnest(${rows.map((row) => row.id)}::uuid[], ${keyIds(notices)}::text[], ${ciphertexts(notices)}::bytea[])
        as v(id, key_id, notice)
      where deliveries.id = v.id`.execute(db)
    return rows.length
  })
}

const MENTION_QUEUES: Record<string, { provider: ChatChannel; idField: string }> = {
  [SLACK_MENTION.queue]: { provider: 'slack', idField: 'eventId' },
  [GITHUB_MENTION.queue]: { provider: 'github', idField: 'deliveryId' },
}

/**
 * Mention jobs used to carry the mention's text. A job not yet acted on gets its text put on its
 * receipt (sealed), where the job now looks; every such job, done or not, loses the text.
 */
async function sealMentionJobs({ db, ring }: Context): Promise<number> {
  const { rows: tables } = await sql<{ exists: boolean }>`
    select to_regclass(${`${JOBS_SCHEMA}.job`}) is not null as exists`.execute(db)
  if (!tables[0]?.exists) return 0 // a new database: pg-boss has not made its tables yet
  const job = sql.table(`${JOBS_SCHEMA}.job`)
  return inBatches(async () => {
    const { rows } = await sql<{ id: string; name: string; data: Record<string, unknown> }>`
      select id, name, data from ${job}
      where name in (${sql.join(Object.keys(MENTION_QUEUES))}) and data ? 'text'
      limit ${BATCH}`.execute(db)
    for (const row of rows) {
      const queue = MENTION_QUEUES[row.name]
      const deliveryId = queue && row.data[queue.idField]
      if (queue && typeof deliveryId === 'string' && typeof row.data.text === 'string') {
        const text = queue.provider === 'slack' ? slackMentionText(row.data.text) : row.data.text
        const sealed = sealJson(ring, { text }, receiptData(queue.provider, deliveryId))
        await db
          .updateTable('webhook_receipts')
          .set({ payload_key_id: sealed.keyId, payload: sealed.ciphertext })
          .where('provider', '=', queue.provider)
          .where('delivery_id', '=', deliveryId)
          .where('handled_at', 'is', null)
          .where('payload', 'is', null)
          .execute()
      }
      await sql`update ${job} set data = data - 'text' where name = ${row.name} and id = ${row.id}::uuid`.execute(db)
    }
    return rows.length
  })
}
