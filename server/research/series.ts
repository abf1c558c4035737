// Recurring briefs. When a run of a series ends, the next slot is scheduled as a pg-boss job with
// startAfter: nothing waits in memory for 7 days, and a restart or deploy loses nothing. A slot runs
// at most once: the wake job has a singleton key per slot, and runs has a unique (series_id, slot).
// The brief is sealed with the memory key ring, like a run's.
import { randomUUID } from 'node:crypto'
import { type SqlBool, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { SeriesStatus } from '#db/schema.ts'
import type { RecurringInfo, SeriesState, SeriesView } from '#server/contracts/series.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { SERIES_WAKE } from '#server/jobs/queues.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'
import { notifyAccountChanged } from '#server/repositories/run-events.ts'
import { type Brief, displayBrief } from '#server/research/brief.ts'
import { UUID } from '#server/text/uuid.ts'

export type { RecurringInfo, SeriesState, SeriesView }

export type SeriesDeps = { db: Db; jobs: Jobs; intervalSeconds: number }

export const seriesBriefData = (seriesId: string) => `series_brief:${seriesId}`

function openSeriesBrief(ring: KeyRing, row: { id: string; brief_key_id: string | null; brief: Buffer | null }): Brief {
  const brief = openColumn<Brief>(ring, row.brief_key_id, row.brief, seriesBriefData(row.id))
  if (!brief) throw new Error(`series ${row.id} has no sealed brief (was the database upgraded without booting?)`)
  return brief
}

export async function createSeries(trx: Db, ring: KeyRing, accountId: string, brief: Brief): Promise<string> {
  const id = randomUUID()
  const sealed = sealJson(ring, brief, seriesBriefData(id))
  await trx
    .insertInto('series')
    .values({ id, account_id: accountId, brief_key_id: sealed.keyId, brief: sealed.ciphertext })
    .execute()
  return id
}

async function scheduleSlot(trx: Db, jobs: Jobs, seriesId: string, slot: number, at: Date): Promise<void> {
  await jobs.send(SERIES_WAKE, { seriesId, slot }, { trx, startAfter: at, singletonKey: `${seriesId}:${slot}` })
}

/**
 * Called when a run ends (complete, failed, cancelled), in the transaction that ends it: the series
 * sleeps until its next slot.
 */
export async function afterRunEnded(
  trx: Db,
  deps: Pick<SeriesDeps, 'jobs' | 'intervalSeconds'>,
  runId: string,
): Promise<void> {
  const run = await trx.selectFrom('runs').select(['series_id']).where('id', '=', runId).executeTakeFirst()
  if (!run?.series_id) return
  const series = await trx
    .selectFrom('series')
    .selectAll()
    .where('id', '=', run.series_id)
    .forUpdate()
    .executeTakeFirst()
  // Paused or cancelled series do not schedule; a retried end of the same run schedules once.
  if (series?.status !== 'active' || series.scheduled_after_run_id === runId) return
  const slot = series.slot + 1
  const nextRunAt = new Date(Date.now() + deps.intervalSeconds * 1000)
  await trx
    .updateTable('series')
    .set({ slot, next_run_at: nextRunAt, scheduled_after_run_id: runId, updated_at: new Date() })
    .where('id', '=', series.id)
    .execute()
  await scheduleSlot(trx, deps.jobs, series.id, slot, nextRunAt)
  await notifyAccountChanged(trx, series.account_id)
}

/**
 * The wake job of a slot. Returns the brief to run, or undefined when the slot is stale (the series
 * was paused, resumed onto a new slot, or cancelled) or already has its run.
 */
export async function claimSlot(
  trx: Db,
  ring: KeyRing,
  seriesId: string,
  slot: number,
): Promise<{ accountId: string; brief: Brief } | undefined> {
  const series = await trx.selectFrom('series').selectAll().where('id', '=', seriesId).forUpdate().executeTakeFirst()
  if (series?.status !== 'active' || series.slot !== slot) return undefined
  const existing = await trx
    .selectFrom('runs')
    .select('id')
    .where('series_id', '=', seriesId)
    .where('series_slot', '=', slot)
    .executeTakeFirst()
  if (existing) return undefined
  await trx
    .updateTable('series')
    .set({ next_run_at: null, updated_at: new Date() })
    .where('id', '=', seriesId)
    .execute()
  return { accountId: series.account_id, brief: { ...openSeriesBrief(ring, series), source: 'schedule' } }
}

async function hasRunningRun(db: Db, seriesId: string): Promise<boolean> {
  const running = await db
    .selectFrom('runs')
    .select('id')
    .where('series_id', '=', seriesId)
    .where('status', '=', 'running')
    .executeTakeFirst()
  return running !== undefined
}

async function seriesState(db: Db, seriesId: string, status: SeriesStatus): Promise<SeriesState> {
  if (status !== 'active') return status
  return (await hasRunningRun(db, seriesId)) ? 'running' : 'sleeping'
}

export async function recurringInfo(db: Db, seriesId: string): Promise<RecurringInfo | undefined> {
  const series = await db
    .selectFrom('series')
    .select(['id', 'status', 'next_run_at'])
    .where('id', '=', seriesId)
    .executeTakeFirst()
  if (!series) return undefined
  return {
    seriesId: series.id,
    state: await seriesState(db, series.id, series.status),
    nextRunAt: series.next_run_at?.toISOString() ?? null,
  }
}

/** The account's series with what a view needs: its latest run, and whether a run is going now. */
function seriesRows(db: Db, accountId: string) {
  return db
    .selectFrom('series')
    .selectAll('series')
    .select((eb) => [
      eb
        .selectFrom('runs')
        .select('runs.id')
        .whereRef('runs.series_id', '=', 'series.id')
        .orderBy('runs.created_at', 'desc')
        .limit(1)
        .as('last_run_id'),
      eb
        .exists(
          eb
            .selectFrom('runs')
            .select('runs.id')
            .whereRef('runs.series_id', '=', 'series.id')
            .where('runs.status', '=', 'running'),
        )
        .as('running'),
    ])
    .where('series.account_id', '=', accountId)
}

type SeriesViewRow = {
  id: string
  brief_key_id: string | null
  brief: Buffer | null
  status: SeriesStatus
  next_run_at: Date | null
  created_at: Date
  last_run_id: string | null
  running: SqlBool
}

function viewSeries(ring: KeyRing, row: SeriesViewRow): SeriesView {
  const brief = displayBrief(openSeriesBrief(ring, row))
  return {
    seriesId: row.id,
    topic: brief.topic,
    brief,
    state: row.status !== 'active' ? row.status : row.running ? 'running' : 'sleeping',
    nextRunAt: row.next_run_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    lastRunId: row.last_run_id ?? null,
  }
}

export async function listSeries(db: Db, ring: KeyRing, accountId: string): Promise<SeriesView[]> {
  const rows = await seriesRows(db, accountId).orderBy('series.created_at', 'desc').execute()
  return rows.map((row) => viewSeries(ring, row))
}

export async function getSeries(
  db: Db,
  ring: KeyRing,
  seriesId: string,
  accountId: string,
): Promise<SeriesView | undefined> {
  if (!UUID.test(seriesId)) return undefined
  const row = await seriesRows(db, accountId).where('series.id', '=', seriesId).executeTakeFirst()
  return row ? viewSeries(ring, row) : undefined
}

/** Pause (no further starts) or resume (the next start comes back, at its old time or now). */
export async function setSeriesStatus(
  deps: SeriesDeps,
  seriesId: string,
  accountId: string,
  status: 'active' | 'paused' | 'cancelled',
): Promise<'ok' | 'not_found' | 'cancelled'> {
  if (!UUID.test(seriesId)) return 'not_found'
  return deps.jobs.transaction(deps.db, async (trx) => {
    const series = await trx
      .selectFrom('series')
      .selectAll()
      .where('id', '=', seriesId)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst()
    if (!series) return 'not_found'
    if (series.status === 'cancelled') return 'cancelled'
    if (status === series.status) return 'ok'
    if (status !== 'active') {
      await trx
        .updateTable('series')
        .set({ status, next_run_at: status === 'cancelled' ? null : series.next_run_at, updated_at: new Date() })
        .where('id', '=', seriesId)
        .execute()
      await notifyAccountChanged(trx, accountId)
      return 'ok'
    }
    // Resuming: a new slot (the paused one's wake job finds itself stale), unless a run is going.
    const running = await hasRunningRun(trx, seriesId)
    const slot = series.slot + 1
    // Back on its old schedule: the pending time, else one interval after the last run ended.
    const lastEnd = await trx
      .selectFrom('runs')
      .select((eb) => eb.fn.max('finished_at').as('at'))
      .where('series_id', '=', seriesId)
      .executeTakeFirst()
    const due =
      series.next_run_at?.getTime() ?? (lastEnd?.at ? new Date(lastEnd.at).getTime() + deps.intervalSeconds * 1000 : 0)
    const nextRunAt = running ? null : new Date(Math.max(Date.now(), due))
    await trx
      .updateTable('series')
      .set({ status: 'active', slot: running ? series.slot : slot, next_run_at: nextRunAt, updated_at: sql`now()` })
      .where('id', '=', seriesId)
      .execute()
    if (nextRunAt) await scheduleSlot(trx, deps.jobs, seriesId, slot, nextRunAt)
    await notifyAccountChanged(trx, accountId)
    return 'ok'
  })
}
