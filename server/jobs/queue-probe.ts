// Whether a job can be queued right now, for /readyz: the same insert a run start makes, inside a
// transaction that is then rolled back, so the probe leaves nothing behind and wakes no worker
// (pg-boss's NOTIFY is only sent on commit).
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { RESEARCH_RUN } from '#server/jobs/queues.ts'

class ProbeRolledBack extends Error {}
// No run has it; the job never commits anyway.
const PROBE_RUN_ID = '00000000-0000-0000-0000-000000000000'

/** Resolves when a run's job could be queued; rejects with why not. */
export async function probeQueue(db: Db, jobs: Jobs): Promise<void> {
  const blocked = await jobs.blocked()
  if (blocked) throw new Error(blocked)
  try {
    await jobs.transaction(db, async (trx) => {
      if (!(await jobs.send(RESEARCH_RUN, { runId: PROBE_RUN_ID }, { trx }))) {
        throw new Error('the job system did not take the job')
      }
      throw new ProbeRolledBack()
    })
  } catch (error) {
    if (!(error instanceof ProbeRolledBack)) throw error
  }
}
