// Recurring briefs. When a run of a series ends, the next slot is scheduled as a pg-boss job with
// startAfter: nothing waits in memory for 7 days, and a restart or deploy loses nothing. A slot runs
// at most once: the wake job has a singleton key per slot, and runs has a unique (series_id, slot).
// The brief is sealed with the memory key ring, like a run's. The SQL is server/repositories/series.ts's
// (and, for a series' runs, server/repositories/runs.ts's).
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { SeriesStatus } from '#db/schema.ts'
import type { RecurringInfo, SeriesState, SeriesView } from '#server/contracts/series.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { SERIES_WAKE } from '#server/jobs/queues.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'
import { notifyAccountChanged } from '#server/repositories/run-events.ts'
import { findRunSeries, findSeriesSlotRunId, hasRunningSeriesRun, lastSeriesRunEnd } from '#server/repositories/runs.ts'
import {
  findSeriesSchedule,
  findSeriesViewRow,
  insertSeries,
  listSeriesViewRows,
  lockSeries,
  type SeriesViewRow,
  updateSeries,
} from '#server/repositories/series.ts'
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
  await insertSeries(trx, { id, account_id: accountId, brief_key_id: sealed.keyId, brief: sealed.ciphertext })
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
  const run = await findRunSeries(trx, runId)
  if (!run?.series_id) return
  const series = await lockSeries(trx, run.series_id)
  // Paused or cancelled series do not schedule; a retried end of the same run schedules once.
  if (series?.status !== 'active' || series.scheduled_after_run_id === runId) return
  const slot = series.slot + 1
  const nextRunAt = new Date(Date.now() + deps.intervalSeconds * 1000)
  await updateSeries(trx, series.id, { slot, next_run_at: nextRunAt, scheduled_after_run_id: runId })
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
  const series = await lockSeries(trx, seriesId)
  if (series?.status !== 'active' || series.slot !== slot) return undefined
  if (await findSeriesSlotRunId(trx, seriesId, slot)) return undefined
  await updateSeries(trx, seriesId, { next_run_at: null })
  return { accountId: series.account_id, brief: { ...openSeriesBrief(ring, series), source: 'schedule' } }
}

async function seriesState(db: Db, seriesId: string, status: SeriesStatus): Promise<SeriesState> {
  if (status !== 'active') return status
  return (await hasRunningSeriesRun(db, seriesId)) ? 'running' : 'sleeping'
}

export async function recurringInfo(db: Db, seriesId: string): Promise<RecurringInfo | undefined> {
  const series = await findSeriesSchedule(db, seriesId)
  if (!series) return undefined
  return {
    seriesId: series.id,
    state: await seriesState(db, series.id, series.status),
    nextRunAt: series.next_run_at?.toISOString() ?? null,
  }
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
  const rows = await listSeriesViewRows(db, accountId)
  return rows.map((row) => viewSeries(ring, row))
}

export async function getSeries(
  db: Db,
  ring: KeyRing,
  seriesId: string,
  accountId: string,
): Promise<SeriesView | undefined> {
  const row = await findSeriesViewRow(db, seriesId, accountId)
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
    const series = await lockSeries(trx, seriesId, accountId)
    if (!series) return 'not_found'
    if (series.status === 'cancelled') return 'cancelled'
    if (status === series.status) return 'ok'
    if (status !== 'active') {
      await updateSeries(trx, seriesId, { status, next_run_at: status === 'cancelled' ? null : series.next_run_at })
      await notifyAccountChanged(trx, accountId)
      return 'ok'
    }
    // Resuming: a new slot (the paused one's wake job finds itself stale), unless a run is going.
    const running = await hasRunningSeriesRun(trx, seriesId)
    const slot = series.slot + 1
    // Back on its old schedule: the pending time, else one interval after the last run ended.
    const lastEnd = await lastSeriesRunEnd(trx, seriesId)
    const due = series.next_run_at?.getTime() ?? (lastEnd ? lastEnd.getTime() + deps.intervalSeconds * 1000 : 0)
    const nextRunAt = running ? null : new Date(Math.max(Date.now(), due))
    await updateSeries(trx, seriesId, { status: 'active', slot: running ? series.slot : slot, next_run_at: nextRunAt })
    if (nextRunAt) await scheduleSlot(trx, deps.jobs, seriesId, slot, nextRunAt)
    await notifyAccountChanged(trx, accountId)
    return 'ok'
  })
}
