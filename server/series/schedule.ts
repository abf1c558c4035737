// Recurring briefs. When a run of a series ends, the next slot is scheduled as a pg-boss job with
// startAfter: nothing waits in memory for 7 days, and a restart or deploy loses nothing. A slot runs
// at most once: the wake job has a singleton key per slot, and runs has a unique (series_id, slot).
// The brief is sealed with the memory key ring, like a run's, at the repository: the SQL is
// server/series/repository.ts's (and, for a series' runs, server/runs/repository/runs.ts's).
import { randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { SERIES_WAKE } from '#server/jobs/queues.ts'
import { notifyAccountChanged } from '#server/repositories/notifications.ts'
import type { RecurringInfo, SeriesState, SeriesView } from '#server/series/contract.ts'
import {
  findSeriesSchedule,
  lockSeries,
  type SeriesBriefs,
  type SeriesRow,
  type SeriesViewRow,
  updateSeries,
} from '#server/series/repository.ts'
import { UUID } from '#server/text/uuid.ts'
import { type Brief, displayBrief } from '#server/vocabulary/brief.ts'
import { type Cadence, formatEvery, nextRunAfter, parseEvery, spreadOffsetMs } from '#server/vocabulary/cadence.ts'
import type { SeriesNotify, SeriesStatus } from '#server/vocabulary/series.ts'

export type { RecurringInfo, SeriesState, SeriesView }

/** `spreadSeconds`: SCHEDULE_SPREAD, over which series due at one cron time are spread (spreadOffsetMs). */
/** What a series' schedule asks of its runs (the runs module's, server/runs/service.ts; a port, decision 063). */
export type RunsOfSeries = {
  /** The id of the series' run of that slot, if it has one. */
  slotRunId(db: Db, seriesId: string, slot: number): Promise<string | undefined>
  /** Whether one of the series' runs is going. */
  running(db: Db, seriesId: string): Promise<boolean>
  /** When the series' last run ended; null when none has. */
  lastEnd(db: Db, seriesId: string): Promise<Date | null>
}

export type SeriesDeps = { db: Db; jobs: Jobs; runs: RunsOfSeries; intervalSeconds: number; spreadSeconds: number }

export async function createSeries(trx: Db, briefs: SeriesBriefs, accountId: string, brief: Brief): Promise<string> {
  const id = randomUUID()
  await briefs.insert(trx, {
    id,
    account_id: accountId,
    brief,
    ...cadenceColumns(brief),
    ...(brief.notify ? { notify: brief.notify } : {}),
  })
  return id
}

/** The cadence columns of a brief's `every` or `cron` (neither: the server's interval). */
export function cadenceColumns(brief: Pick<Brief, 'every' | 'cron' | 'timeZone'>) {
  return {
    every_seconds: brief.every === undefined ? null : (parseEvery(brief.every) ?? null),
    cron: brief.cron ?? null,
    time_zone: brief.cron === undefined ? null : (brief.timeZone ?? 'UTC'),
  }
}

/** A series' cadence, from its columns; neither set: every `defaultSeconds` (RECURRING_INTERVAL). */
function cadenceOfColumns(
  row: Pick<SeriesRow, 'every_seconds' | 'cron' | 'time_zone'>,
  defaultSeconds: number,
): Cadence {
  if (row.cron) return { cron: row.cron, timeZone: row.time_zone ?? 'UTC' }
  return { everySeconds: row.every_seconds ?? defaultSeconds }
}

/** When a series with these cadence columns is next due after `after`, its cron times spread. */
function nextDue(
  series: Pick<SeriesRow, 'id' | 'every_seconds' | 'cron' | 'time_zone'>,
  deps: Pick<SeriesDeps, 'intervalSeconds' | 'spreadSeconds'>,
  after: Date,
): Date {
  const cadence = cadenceOfColumns(series, deps.intervalSeconds)
  return nextRunAfter(cadence, after, spreadOffsetMs(series.id, deps.spreadSeconds))
}

async function scheduleSlot(trx: Db, jobs: Jobs, seriesId: string, slot: number, at: Date): Promise<void> {
  await jobs.send(SERIES_WAKE, { seriesId, slot }, { trx, startAfter: at, singletonKey: `${seriesId}:${slot}` })
}

/**
 * Called when a run of a series ends (complete, failed, cancelled), in the transaction that ends it:
 * the series sleeps until its next slot. Answers the series (whether its quiet runs are delivered).
 */
export async function afterRunEnded(
  trx: Db,
  deps: Pick<SeriesDeps, 'jobs' | 'intervalSeconds' | 'spreadSeconds'>,
  runId: string,
  seriesId: string,
): Promise<{ id: string; notify: SeriesNotify } | undefined> {
  const series = await lockSeries(trx, seriesId)
  if (!series) return undefined
  const found = { id: series.id, notify: series.notify }
  // Paused or cancelled series do not schedule; a retried end of the same run schedules once.
  if (series.status !== 'active' || series.scheduled_after_run_id === runId) return found
  const slot = series.slot + 1
  const nextRunAt = nextDue(series, deps, new Date())
  await updateSeries(trx, series.id, { slot, next_run_at: nextRunAt, scheduled_after_run_id: runId })
  await scheduleSlot(trx, deps.jobs, series.id, slot, nextRunAt)
  await notifyAccountChanged(trx, series.account_id)
  return found
}

/**
 * The wake job of a slot. Returns the brief to run, or undefined when the slot is stale (the series
 * was paused, resumed onto a new slot, or cancelled) or already has its run.
 */
export async function claimSlot(
  trx: Db,
  { briefs, runs }: { briefs: SeriesBriefs; runs: RunsOfSeries },
  seriesId: string,
  slot: number,
): Promise<{ accountId: string; brief: Brief } | undefined> {
  const series = await briefs.lock(trx, seriesId)
  if (series?.status !== 'active' || series.slot !== slot) return undefined
  if (await runs.slotRunId(trx, seriesId, slot)) return undefined
  await updateSeries(trx, seriesId, { next_run_at: null })
  return { accountId: series.account_id, brief: { ...series.brief, source: 'schedule' } }
}

async function seriesState(db: Db, runs: RunsOfSeries, seriesId: string, status: SeriesStatus): Promise<SeriesState> {
  if (status !== 'active') return status
  return (await runs.running(db, seriesId)) ? 'running' : 'sleeping'
}

export async function recurringInfo(db: Db, runs: RunsOfSeries, seriesId: string): Promise<RecurringInfo | undefined> {
  const series = await findSeriesSchedule(db, seriesId)
  if (!series) return undefined
  return {
    seriesId: series.id,
    state: await seriesState(db, runs, series.id, series.status),
    // A paused series runs at no time until it is resumed; the column keeps when it was due, for that.
    nextRunAt: series.status === 'active' ? (series.next_run_at?.toISOString() ?? null) : null,
  }
}

function viewSeries(row: SeriesViewRow): SeriesView {
  const brief = displayBrief(row.brief)
  return {
    seriesId: row.id,
    topic: brief.topic,
    brief,
    state: row.status !== 'active' ? row.status : row.running ? 'running' : 'sleeping',
    cadence: {
      every: row.every_seconds === null ? null : formatEvery(row.every_seconds),
      cron: row.cron,
      timeZone: row.cron === null ? null : (row.time_zone ?? 'UTC'),
    },
    notify: row.notify,
    emailDigest: row.email_digest,
    nextRunAt: row.status === 'active' ? (row.next_run_at?.toISOString() ?? null) : null,
    createdAt: row.created_at.toISOString(),
    lastRunId: row.last_run_id ?? null,
  }
}

export async function listSeries(db: Db, briefs: SeriesBriefs, accountId: string): Promise<SeriesView[]> {
  const rows = await briefs.list(db, accountId)
  return rows.map(viewSeries)
}

export async function getSeries(
  db: Db,
  briefs: SeriesBriefs,
  seriesId: string,
  accountId: string,
): Promise<SeriesView | undefined> {
  const row = await briefs.find(db, seriesId, accountId)
  return row ? viewSeries(row) : undefined
}

/**
 * Runs `change` on the account's series, locked, in a transaction whose jobs are woken once it
 * commits; a series that does not exist (or is another account's) or was stopped is left alone.
 */
function changeLiveSeries<S extends SeriesRow>(
  deps: SeriesDeps,
  seriesId: string,
  lock: (trx: Db) => Promise<S | undefined>,
  change: (trx: Db, series: S) => Promise<'ok'>,
): Promise<'ok' | 'not_found' | 'cancelled'> {
  if (!UUID.test(seriesId)) return Promise.resolve('not_found')
  return deps.jobs.transaction(deps.db, async (trx) => {
    const series = await lock(trx)
    if (!series) return 'not_found'
    if (series.status === 'cancelled') return 'cancelled'
    return change(trx, series)
  })
}

/** Pause (no further starts) or resume (the next start comes back, at its old time or now). */
export async function setSeriesStatus(
  deps: SeriesDeps,
  seriesId: string,
  accountId: string,
  status: SeriesStatus,
): Promise<'ok' | 'not_found' | 'cancelled'> {
  const lock = (trx: Db) => lockSeries(trx, seriesId, accountId)
  return changeLiveSeries(deps, seriesId, lock, async (trx, series) => {
    if (status === series.status) return 'ok'
    if (status !== 'active') {
      await updateSeries(trx, seriesId, { status, next_run_at: status === 'cancelled' ? null : series.next_run_at })
      await notifyAccountChanged(trx, accountId)
      return 'ok'
    }
    // Resuming: a new slot (the paused one's wake job finds itself stale), unless a run is going.
    const running = await deps.runs.running(trx, seriesId)
    const slot = series.slot + 1
    // Back on its old schedule: the pending time, else one interval after the last run ended.
    const lastEnd = await deps.runs.lastEnd(trx, seriesId)
    const due = series.next_run_at?.getTime() ?? (lastEnd ? nextDue(series, deps, lastEnd).getTime() : 0)
    const nextRunAt = running ? null : new Date(Math.max(Date.now(), due))
    await updateSeries(trx, seriesId, { status: 'active', slot: running ? series.slot : slot, next_run_at: nextRunAt })
    if (nextRunAt) await scheduleSlot(trx, deps.jobs, seriesId, slot, nextRunAt)
    await notifyAccountChanged(trx, accountId)
    return 'ok'
  })
}

export type SeriesSettings = Partial<Pick<Brief, 'every' | 'cron' | 'timeZone' | 'notify'>> & {
  /** Mail each run worth telling to the account's verified addresses (a series setting, not the brief's). */
  emailDigest?: boolean
}

/**
 * Changes how a series repeats (`every` or `cron` with `timeZone`; giving one clears the other) or
 * whether its quiet runs are delivered. A sleeping series is rescheduled onto a new slot from its
 * last run's end (the old slot's wake job finds itself stale); the stored brief says the same.
 */
export async function updateSeriesSettings(
  deps: SeriesDeps & { briefs: SeriesBriefs },
  seriesId: string,
  accountId: string,
  settings: SeriesSettings,
): Promise<'ok' | 'not_found' | 'cancelled'> {
  const lock = (trx: Db) => deps.briefs.lock(trx, seriesId, accountId)
  return changeLiveSeries(deps, seriesId, lock, async (trx, series) => {
    const brief: Brief = { ...series.brief }
    if (settings.every !== undefined || settings.cron !== undefined) {
      delete brief.every
      delete brief.cron
      delete brief.timeZone
      if (settings.every !== undefined) brief.every = settings.every
      if (settings.cron !== undefined) {
        brief.cron = settings.cron
        brief.timeZone = settings.timeZone ?? 'UTC'
      }
    }
    if (settings.notify !== undefined) brief.notify = settings.notify
    const columns = cadenceColumns(brief)
    const cadenceChanged =
      columns.every_seconds !== series.every_seconds ||
      columns.cron !== series.cron ||
      columns.time_zone !== series.time_zone
    // Sleeping onto a new cadence: a new slot, due one new interval (or cron time) after the last run.
    const reschedule = series.status === 'active' && series.next_run_at !== null && cadenceChanged
    const slot = reschedule ? series.slot + 1 : series.slot
    let nextRunAt = series.next_run_at
    if (reschedule) {
      const after = (await deps.runs.lastEnd(trx, seriesId)) ?? new Date()
      const due = nextDue({ ...columns, id: seriesId }, deps, after)
      nextRunAt = new Date(Math.max(Date.now(), due.getTime()))
    }
    await deps.briefs.update(trx, seriesId, brief, {
      ...columns,
      notify: brief.notify ?? series.notify,
      email_digest: settings.emailDigest ?? series.email_digest,
      slot,
      next_run_at: nextRunAt,
    })
    if (reschedule && nextRunAt) await scheduleSlot(trx, deps.jobs, seriesId, slot, nextRunAt)
    await notifyAccountChanged(trx, accountId)
    return 'ok'
  })
}

/**
 * "Run now": the series' pending slot is claimed at once, so its wake job finds the slot taken
 * and the next run is scheduled from this run's end, as always: the schedule moves once, not twice.
 * The caller starts the run in `trx`. Paused, stopped and running series are not run now.
 */
export async function claimSlotNow(
  trx: Db,
  { briefs, runs }: { briefs: SeriesBriefs; runs: RunsOfSeries },
  seriesId: string,
  accountId: string,
): Promise<{ ok: true; slot: number; brief: Brief } | { ok: false; reason: 'not_found' | SeriesState }> {
  if (!UUID.test(seriesId)) return { ok: false, reason: 'not_found' }
  // Another "run now" (or the wake job, or a run ending) holds the series: this one is told it is
  // running, as it would be a moment later, rather than queueing behind it.
  const series = await briefs.lockUnlessBusy(trx, seriesId, accountId)
  if (series === 'busy') return { ok: false, reason: 'running' }
  if (!series) return { ok: false, reason: 'not_found' }
  if (series.status !== 'active') return { ok: false, reason: series.status }
  if ((await runs.running(trx, seriesId)) || (await runs.slotRunId(trx, seriesId, series.slot))) {
    return { ok: false, reason: 'running' }
  }
  await updateSeries(trx, seriesId, { next_run_at: null })
  return { ok: true, slot: series.slot, brief: series.brief }
}
