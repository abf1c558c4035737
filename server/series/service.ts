// The series module's service (decision 063): recurring briefs as the API, MCP and the pages ask for
// them (list, pause, resume, stop, change how they repeat, run now) and the wake job's slot; and,
// built apart from it, what runs ask of their series (createSeriesForRuns), which the composition
// root hands to a run's start, its end and the run views as their ports. What a series means is
// schedule.ts's; its table's SQL, with its sealed brief, is repository.ts's.

import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import type { Logger } from '#server/logger.ts'
import type { RunStart } from '#server/runs/contract.ts'
import type { Refusal, Requester, RunService } from '#server/runs/service.ts'
import type { SeriesBriefs } from '#server/series/repository.ts'
import {
  afterRunEnded,
  claimSlot,
  claimSlotNow,
  createSeries,
  getSeries,
  listSeries,
  type RunsOfSeries,
  recurringInfo,
  type SeriesSettings,
  type SeriesView,
  setSeriesStatus,
  updateSeriesSettings,
} from '#server/series/schedule.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import { cadenceField, scheduleProblem } from '#server/vocabulary/cadence.ts'
import type { SeriesState, SeriesStatus } from '#server/vocabulary/series.ts'

/**
 * What runs ask of their series: a recurring brief's first run makes its series, a run's end schedules
 * the next slot, and run views say whether a series sleeps. It starts no run, so the composition root
 * builds it before the admission that starts runs, which takes it.
 */
export function createSeriesForRuns(deps: {
  db: Db
  jobs: Jobs
  briefs: SeriesBriefs
  /** What the schedule asks of a series' runs (the runs module's runsOfSeries). */
  runs: RunsOfSeries
  /** RECURRING_INTERVAL and SCHEDULE_SPREAD, as for the service. */
  intervalSeconds: number
  spreadSeconds: number
}) {
  const { db, briefs, runs } = deps
  return {
    create: (trx: Db, accountId: string, brief: Brief): Promise<string> => createSeries(trx, briefs, accountId, brief),
    afterRunEnded: (trx: Db, runId: string, seriesId: string) => afterRunEnded(trx, deps, runId, seriesId),
    list: (accountId: string): Promise<SeriesView[]> => listSeries(db, briefs, accountId),
    recurringInfo: (seriesId: string) => recurringInfo(db, runs, seriesId),
    /** The account's series, or undefined (what a feed of a series follows). */
    find: (accountId: string, seriesId: string): Promise<SeriesView | undefined> =>
      getSeries(db, briefs, seriesId, accountId),
  }
}

export type SeriesServiceDeps = {
  db: Db
  jobs: Jobs
  log: Logger
  /** What run now and the wake job start runs with (the runs module's service). */
  runs: Pick<RunService, 'start' | 'startSeriesRun' | 'notQueued'>
  /** SCHEDULE_MIN_INTERVAL: the shortest time a series may ask for between its runs. */
  scheduleMinSeconds: number
  /** The series' table, its sealed briefs opened at the repository (built by the composition root). */
  briefs: SeriesBriefs
  /** What the schedule asks of a series' runs (the runs module's runsOfSeries). */
  runsOfSeries: RunsOfSeries
  /** RECURRING_INTERVAL: how long a series sleeps between runs. */
  intervalSeconds: number
  /** SCHEDULE_SPREAD: the window over which series due at one cron time are spread. */
  spreadSeconds: number
  /** SMTP_URL is set: a series may send email digests. */
  emailEnabled: boolean
}

export type SeriesUpdate =
  | SeriesChange
  | { ok: false; reason: 'schedule'; message: string; field: 'every' | 'cron' }
  /** emailDigest: true on a server without SMTP_URL. */
  | { ok: false; reason: 'email_off' }

export type RunNowOutcome =
  | { ok: true; run: RunStart; decisions: LimitDecision[] }
  | { ok: false; reason: 'not_found' | SeriesState }
  | { ok: false; reason: 'refused'; refusal: Refusal }

/** Thrown to roll back a run-now claim whose run admission refused. */
class RefusedRunNow extends Error {
  readonly refusal: Refusal
  constructor(refusal: Refusal) {
    super(refusal.message)
    this.refusal = refusal
  }
}

export type SeriesChange =
  | { ok: true; series: SeriesView }
  | { ok: false; reason: 'not_found' }
  /** Stopped for good: a new brief starts a new series. */
  | { ok: false; reason: 'cancelled' }

export function createSeriesService(deps: SeriesServiceDeps) {
  const { db, jobs, runs } = deps
  const seriesBriefs = deps.briefs
  // What changing a series' schedule needs.
  const scheduling = {
    db,
    jobs,
    runs: deps.runsOfSeries,
    intervalSeconds: deps.intervalSeconds,
    spreadSeconds: deps.spreadSeconds,
  }
  const slots = { briefs: seriesBriefs, runs: deps.runsOfSeries }

  return {
    list: (accountId: string): Promise<SeriesView[]> => listSeries(db, seriesBriefs, accountId),

    /** The account's series, or undefined: another account's series is no series. */
    get: (accountId: string, seriesId: string): Promise<SeriesView | undefined> =>
      getSeries(db, seriesBriefs, seriesId, accountId),

    /** Pause (no further starts), resume (on its old schedule) or stop for good. */
    async setStatus(accountId: string, seriesId: string, status: SeriesStatus): Promise<SeriesChange> {
      const outcome = await setSeriesStatus(scheduling, seriesId, accountId, status)
      if (outcome !== 'ok') return { ok: false, reason: outcome }
      const series = await getSeries(db, seriesBriefs, seriesId, accountId)
      return series ? { ok: true, series } : { ok: false, reason: 'not_found' }
    },

    /**
     * Changes the cadence (`every`, or `cron` with `timeZone`), `notify` or `emailDigest`; a cadence
     * out of range is refused with the allowed range, email digests while email is off.
     */
    async update(accountId: string, seriesId: string, settings: SeriesSettings): Promise<SeriesUpdate> {
      if (settings.emailDigest && !deps.emailEnabled) return { ok: false, reason: 'email_off' }
      const problem = scheduleProblem(settings, deps.scheduleMinSeconds)
      if (problem) return { ok: false, reason: 'schedule', message: problem, field: cadenceField(settings) }
      const outcome = await updateSeriesSettings({ ...scheduling, briefs: seriesBriefs }, seriesId, accountId, settings)
      if (outcome !== 'ok') return { ok: false, reason: outcome }
      const series = await getSeries(db, seriesBriefs, seriesId, accountId)
      return series ? { ok: true, series } : { ok: false, reason: 'not_found' }
    },

    /**
     * Runs the series now, within the requester's run limits: its pending slot is taken, and the next
     * run is scheduled from this one's end (the schedule moves once).
     */
    async runNow(input: {
      accountId: string
      seriesId: string
      requester: Requester
      source: Brief['source']
    }): Promise<RunNowOutcome> {
      // Set once admitted: a transaction that then fails gives back the quota it took.
      let release: (() => Promise<void>) | undefined
      const started = jobs.transaction(db, async (trx): Promise<RunNowOutcome> => {
        const claimed = await claimSlotNow(trx, slots, input.seriesId, input.accountId)
        if (!claimed.ok) return { ok: false, reason: claimed.reason }
        const admitted = await runs.start({
          requester: input.requester,
          brief: { ...claimed.brief, source: input.source },
          account: { id: input.accountId },
          series: { id: input.seriesId, slot: claimed.slot },
          trx,
        })
        // A refusal rolls back the claim: the slot's wake job still runs it when due.
        if (!admitted.ok) throw new RefusedRunNow(admitted.refusal)
        release = admitted.release
        return { ok: true, run: admitted.run, decisions: admitted.decisions }
      })
      return started.catch(async (error: unknown): Promise<RunNowOutcome> => {
        if (error instanceof RefusedRunNow) return { ok: false, reason: 'refused', refusal: error.refusal }
        await release?.().catch(() => {})
        // The claim and the start failed as one transaction: nothing was written, the slot stays
        // pending, and its wake job still runs it when due.
        deps.log.error({ err: error }, 'a series run could not be queued')
        return { ok: false, reason: 'refused', refusal: runs.notQueued(error) }
      })
    },

    /** The wake job of a slot: exactly one run per slot, started in the transaction that claims it. */
    async wake(seriesId: string, slot: number): Promise<boolean> {
      return jobs.transaction(db, async (trx) => {
        const claimed = await claimSlot(trx, slots, seriesId, slot)
        if (!claimed) return false
        await runs.startSeriesRun(trx, {
          accountId: claimed.accountId,
          brief: claimed.brief,
          series: { id: seriesId, slot },
        })
        return true
      })
    },
  }
}

export type SeriesService = ReturnType<typeof createSeriesService>
