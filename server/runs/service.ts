// Runs, as every surface asks for them: start one (admitted once, the same for every surface), read
// its view (one composition: the REST API, MCP, the pages and chat see the same run), list, cancel,
// and what the job handlers do with runs (run the engine, sweep overdue runs, purge old events).

import { LRUCache } from 'lru-cache'
import type { Db } from '#db/database.ts'
import type { DemoVisitor } from '#server/accounts/contract.ts'
import { type EngineDeps, NOT_TAKEN_ERROR, runResearch } from '#server/research/pipeline.ts'
import {
  type AdmissionDeps,
  type AdmittedStart,
  notQueuedRefusal,
  type Refusal,
  type Requester,
  startAdmittedRun,
} from '#server/runs/admission.ts'
import type { RunStart } from '#server/runs/contract.ts'
import { type RunEvent, readRunEvents } from '#server/runs/event-log.ts'
import { listRuns, openRunReport, type RunListItem, type RunView, runRecord, viewRun } from '#server/runs/record.ts'
import { purgeRunEvents } from '#server/runs/repository/events.ts'
import {
  findRunId,
  findSeriesSlotRunId,
  getRun,
  getRunBrief,
  getRunReports,
  getRunSeal,
  hasRunningSeriesRun,
  lastSeriesRunEnd,
  overdueRuns,
  type RunRow,
  type RunSeal,
  type RunSeals,
} from '#server/runs/repository/runs.ts'
import { notQueued, startRun } from '#server/runs/start.ts'
import type { RecurringInfo, SeriesState, SeriesView } from '#server/series/contract.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import type { Report } from '#server/vocabulary/report.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'

/** Who asks for a run, and why one may be refused: what the surfaces that start runs pass and answer. */
export type { Refusal, Requester } from '#server/runs/admission.ts'

/** Complete runs whose views are kept in memory, and the most sealed bytes (reports and briefs) they may hold. */
const COMPLETED_VIEWS = 2000
const COMPLETED_VIEW_BYTES = 64 * 1024 * 1024

export type RunServiceDeps = {
  /** What starting a run needs (the one admission, composed in server/services.ts). */
  admission: AdmissionDeps
  /** Where corpus sources are readable, for answers read away from the pages. */
  publicUrl: string
  /** Ends a run with all its end owes (composed in server/services.ts). */
  endRun: EngineDeps['endRun']
  /** The engine's providers and settings; only workers run the engine. */
  engine: Omit<EngineDeps, 'endRun' | 'memory' | 'runs'>
  /** What run views say of a run's series (the series module's; a port, decision 063). */
  series: SeriesOfRuns
  /** Writes a demo visitor's account, if not there yet (the accounts module's; a port). */
  ensureVisitor: (visitor: DemoVisitor) => Promise<void>
  /** The most runs one account may have going across every worker (RUNS_PER_ACCOUNT); 0: no limit. */
  runsPerAccount: number
}

/** The account's series, and whether a series sleeps (and until when) or is paused. */
export type SeriesOfRuns = {
  list(accountId: string): Promise<SeriesView[]>
  recurringInfo(seriesId: string): Promise<RecurringInfo | undefined>
}

/**
 * Who reads a view: an API client (REST, MCP, chat) gets corpus sources as links to their pages on
 * this server; the pages link them themselves.
 */
export type Audience = 'client' | 'page'

export type RunStartInput = {
  requester: Requester
  brief: Brief
  /**
   * The account the run belongs to. A demo visitor's account is written, and a `create`d one (a
   * new trial visitor's) made, only once the run is admitted: a refused visitor leaves nothing behind.
   */
  account: { id: string } | { visitor: DemoVisitor } | { create: () => Promise<string> }
  /**
   * Writes the run in the caller's transaction (a mention, a series' run now): a start that cannot be
   * queued then throws, for the caller to roll back; `notQueued` words it.
   */
  trx?: Db
  /** Makes it the series' run of a slot (a series' run now). */
  series?: { id: string; slot: number }
}

export type CancelOutcome =
  | { ok: true; run: RunView }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'not_running'; status: RunStatus }

export type DashboardRun = RunListItem & {
  /** Set on the latest run of a recurring brief that is waiting for its next run (or paused). */
  series?: { state: Extract<SeriesState, 'sleeping' | 'paused'>; nextRunAt: string | null }
}

export type RunPage = { run: RunView; events: RunEvent[]; brief: Brief; topicId: string | undefined }

/**
 * What a series' schedule asks of its runs (its port RunsOfSeries): whether a slot has its run, whether
 * one is going, when the last ended. The runs' repository answers; the composition root hands it over.
 */
export const runsOfSeries = {
  slotRunId: findSeriesSlotRunId,
  running: hasRunningSeriesRun,
  lastEnd: lastSeriesRunEnd,
}

/**
 * The run a message, digest, webhook or feed entry is about, opened (notify's port RunsToTell): its
 * view, its brief, a feed's reports (one decrypt each).
 */
export function runsToTell(seals: RunSeals) {
  return {
    async view(db: Db, runId: string, options: { publicUrl: string }): Promise<RunView | undefined> {
      const row = await getRun(db, runId)
      return row && viewRun(seals, row, options)
    },
    async brief(db: Db, runId: string): Promise<{ accountId: string; brief: Brief } | undefined> {
      const row = await getRunBrief(db, runId)
      return row && { accountId: row.account_id, brief: seals.brief(row) }
    },
    async reports(
      db: Db,
      runIds: string[],
      options: { publicUrl: string },
    ): Promise<Array<{ runId: string; report: Report }>> {
      const rows = new Map((await getRunReports(db, runIds)).map((row) => [row.id, row]))
      return runIds.flatMap((runId) => {
        const row = rows.get(runId)
        const report = row && openRunReport(seals, row, options)
        return report ? [{ runId, report }] : []
      })
    },
  }
}

export function createRunService(deps: RunServiceDeps) {
  const { admission } = deps
  const { memory } = admission
  const { db } = memory
  const { runSeals: seals } = admission
  // The run the engine works on, as this module keeps it (the engine's port RunRecord).
  const record = runRecord(db, seals, { jobs: admission.jobs, runsPerAccount: deps.runsPerAccount })

  // A complete run never changes: its view (brief and report opened and cleaned, the costly part of
  // a read) is kept, bounded by count and by the size of its sealed report, under the run and the
  // audience; the ids of the keys that sealed it must still match (a key rotation re-seals).
  const completed = new LRUCache<string, { view: RunView; seal: RunSeal; bytes: number }>({
    max: COMPLETED_VIEWS,
    maxSize: COMPLETED_VIEW_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
  })
  const sameSeal = (a: RunSeal, b: RunSeal) =>
    a.brief_key_id === b.brief_key_id && a.report_key_id === b.report_key_id && a.series_id === b.series_id

  async function view(row: RunRow, audience: Audience): Promise<RunView> {
    const base = viewRun(seals, row, audience === 'client' ? { publicUrl: deps.publicUrl } : {})
    if (row.status === 'complete') {
      completed.set(`${row.id}:${audience}`, {
        view: base,
        seal: row,
        bytes: (row.report?.length ?? 0) + (row.brief?.length ?? 0),
      })
    }
    return withRecurring(base, row.series_id)
  }

  async function withRecurring(base: RunView, seriesId: string | null): Promise<RunView> {
    const recurring = seriesId ? await deps.series.recurringInfo(seriesId) : undefined
    return recurring ? { ...base, recurring } : base
  }

  return {
    /**
     * Admits (limits, budgets, whether the requester may start a recurring brief) and starts a run.
     * A run that could not be queued is a refusal too (`not_queued`): nothing was written or counted.
     */
    start(input: RunStartInput): Promise<AdmittedStart> {
      const { account } = input
      return startAdmittedRun(admission, {
        requester: input.requester,
        brief: input.brief,
        trx: input.trx,
        series: input.series,
        accountId:
          'id' in account
            ? account.id
            : 'create' in account
              ? account.create
              : async () => {
                  await deps.ensureVisitor(account.visitor)
                  return account.visitor.accountId
                },
      })
    },

    /**
     * Starts a series' run of a slot in the transaction that claims it (its wake job), without
     * admission: the series was admitted when it was made.
     */
    startSeriesRun(
      trx: Db,
      input: { accountId: string; brief: Brief; series: { id: string; slot: number } },
    ): Promise<RunStart> {
      return startRun(admission, input.accountId, input.brief, { series: input.series, trx })
    },

    /** A start in the caller's transaction that failed, as the refusal every surface says. */
    notQueued: (error: unknown): Refusal => notQueuedRefusal(notQueued(error)),

    /** The account's run, or undefined: another account's run is no run. */
    async get(accountId: string, runId: string, audience: Audience = 'client'): Promise<RunView | undefined> {
      const kept = completed.get(`${runId}:${audience}`)
      if (kept) {
        // Still the account's, and sealed as it was when kept: nothing sealed is read again.
        const seal = await getRunSeal(db, runId, accountId)
        if (!seal) return undefined
        if (sameSeal(seal, kept.seal)) return withRecurring(kept.view, seal.series_id)
      }
      const row = await getRun(db, runId, accountId)
      return row && view(row, audience)
    },

    /**
     * The run's id as stored when it is the account's, else undefined; opens nothing (before
     * streaming its events).
     */
    own: (accountId: string, runId: string): Promise<string | undefined> => findRunId(db, runId, accountId),

    /** What a run's page shows: the view, its events so far, its brief and its topic's memory page. */
    async page(accountId: string, runId: string): Promise<RunPage | undefined> {
      const row = await getRun(db, runId, accountId)
      if (!row) return undefined
      const [run, events, topicId] = await Promise.all([
        view(row, 'page'),
        readRunEvents(db, seals.event, row.id, 0),
        row.topic_hash ? memory.liveTopicId(accountId, row.topic_hash) : undefined,
      ])
      return { run, events, brief: seals.brief(row), topicId }
    },

    /** Newest first; `topic` in any spelling finds the same topic's runs. */
    list(
      accountId: string,
      query: { limit: number; cursor?: string; status?: RunStatus; topic?: string; topicHash?: Buffer },
    ) {
      return listRuns(db, seals, accountId, {
        limit: query.limit,
        cursor: query.cursor,
        status: query.status,
        topicHash: query.topicHash ?? (query.topic ? memory.topicHash(accountId, query.topic) : undefined),
      })
    },

    /** The account's 20 newest runs; the latest run of a sleeping or paused series says so. */
    async dashboard(accountId: string): Promise<DashboardRun[]> {
      const [{ runs }, series] = await Promise.all([
        listRuns(db, seals, accountId, { limit: 20 }),
        deps.series.list(accountId),
      ])
      const waiting = new Map<string, DashboardRun['series']>()
      for (const item of series) {
        if (item.lastRunId && (item.state === 'sleeping' || item.state === 'paused')) {
          waiting.set(item.lastRunId, { state: item.state, nextRunAt: item.nextRunAt })
        }
      }
      return runs.map((run) => {
        const state = waiting.get(run.runId)
        return state ? { ...run, series: state } : run
      })
    },

    /** The brief of the account's run (to research its topic again), or undefined. */
    async brief(accountId: string, runId: string): Promise<Brief | undefined> {
      const row = await getRun(db, runId, accountId)
      return row && seals.brief(row)
    },

    /** Cancels the account's running run; a recurring brief's series sleeps until its next run. */
    async cancel(accountId: string, runId: string, audience: Audience = 'client'): Promise<CancelOutcome> {
      const row = await getRun(db, runId, accountId)
      if (!row) return { ok: false, reason: 'not_found' }
      if (!(await deps.endRun(row.id, { status: 'cancelled', accountId }))) {
        const now = await getRun(db, row.id)
        return { ok: false, reason: 'not_running', status: now?.status ?? row.status }
      }
      return { ok: true, run: await view((await getRun(db, row.id)) ?? row, audience) }
    },

    /** Ends a running run with all its end owes; false when it had already ended. */
    end: deps.endRun,

    /** The job handler's part: runs (or resumes from its checkpoint) the engine on a run. */
    execute(runId: string): Promise<void> {
      return runResearch({ ...deps.engine, memory, runs: record, endRun: deps.endRun }, runId)
    },

    /** Whatever happened to its worker, a run past its deadline ends as failed, never stuck "running". */
    async sweepOverdue(now: Date): Promise<number> {
      let ended = 0
      for (const { id, taken } of await overdueRuns(db, now)) {
        const error = taken
          ? {
              code: 'deadline_exceeded',
              message: 'The run did not finish within its time limit (its worker may have stopped). Try again.',
            }
          : NOT_TAKEN_ERROR
        if (await deps.endRun(id, { status: 'failed', error })) ended += 1
      }
      return ended
    },

    /** Run events older than `before` (the report and status keep what matters); how many went. */
    purgeEvents(before: Date): Promise<number> {
      return purgeRunEvents(db, before)
    },
  }
}

export type RunService = ReturnType<typeof createRunService>
