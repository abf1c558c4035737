// What notify asks of the runs module (a port, decision 063): the run a message, a digest, a webhook
// or a feed entry is about, opened. server/services.ts hands it the runs' runsToTell.
import type { Db } from '#db/database.ts'
import type { RunView } from '#server/runs/contract.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import type { Report } from '#server/vocabulary/report.ts'

export type RunsToTell = {
  /** The run as a message shows it (corpus sources linked under `publicUrl`); undefined when it is gone. */
  view(db: Db, runId: string, options: { publicUrl: string }): Promise<RunView | undefined>
  /** The run's account and brief; undefined when it is gone. */
  brief(db: Db, runId: string): Promise<{ accountId: string; brief: Brief } | undefined>
  /** The reports of these complete runs, in their order; a run gone, or not complete, is left out. */
  reports(db: Db, runIds: string[], options: { publicUrl: string }): Promise<Array<{ runId: string; report: Report }>>
}
