// Recurring briefs, as the surfaces ask for them: list, read, pause, resume, stop; and the wake job's
// part, which starts a slot's run in the transaction that claims the slot.
import type { Jobs } from '#server/jobs/boss.ts'
import type { MemoryContext } from '#server/memory/store.ts'
import { claimSlot, getSeries, listSeries, type SeriesView, setSeriesStatus } from '#server/research/series.ts'
import { type RunDeadlines, startRun } from '#server/research/start-run.ts'

export type SeriesServiceDeps = {
  memory: MemoryContext
  jobs: Jobs
  deadlines: RunDeadlines
  /** RECURRING_INTERVAL: how long a series sleeps between runs. */
  intervalSeconds: number
}

export type SeriesChange =
  | { ok: true; series: SeriesView }
  | { ok: false; reason: 'not_found' }
  /** Stopped for good: a new brief starts a new series. */
  | { ok: false; reason: 'cancelled' }

export function createSeriesService(deps: SeriesServiceDeps) {
  const { memory, jobs } = deps
  const { db, ring } = memory

  return {
    list: (accountId: string): Promise<SeriesView[]> => listSeries(db, ring, accountId),

    /** The account's series, or undefined: another account's series is no series. */
    get: (accountId: string, seriesId: string): Promise<SeriesView | undefined> =>
      getSeries(db, ring, seriesId, accountId),

    /** Pause (no further starts), resume (on its old schedule) or stop for good. */
    async setStatus(
      accountId: string,
      seriesId: string,
      status: 'active' | 'paused' | 'cancelled',
    ): Promise<SeriesChange> {
      const outcome = await setSeriesStatus(
        { db, jobs, intervalSeconds: deps.intervalSeconds },
        seriesId,
        accountId,
        status,
      )
      if (outcome !== 'ok') return { ok: false, reason: outcome }
      const series = await getSeries(db, ring, seriesId, accountId)
      return series ? { ok: true, series } : { ok: false, reason: 'not_found' }
    },

    /** The wake job of a slot: exactly one run per slot, started in the transaction that claims it. */
    async wake(seriesId: string, slot: number): Promise<boolean> {
      return jobs.transaction(db, async (trx) => {
        const claimed = await claimSlot(trx, ring, seriesId, slot)
        if (!claimed) return false
        const startDeps = { db, jobs, memory, deadlines: deps.deadlines }
        await startRun(startDeps, claimed.accountId, claimed.brief, { series: { id: seriesId, slot }, trx })
        return true
      })
    },
  }
}

export type SeriesService = ReturnType<typeof createSeriesService>
