// Whether a job can be queued right now, for /readyz: the same insert a run start makes, inside a
// transaction that is then rolled back, so the probe leaves nothing behind and wakes no worker
// (pg-boss's NOTIFY is only sent on commit).
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'

class ProbeRolledBack extends Error {}

/** Resolves when a job of `queue` could be queued; rejects with why not. */
export async function probeQueue(db: Db, jobs: Jobs, queue: string): Promise<void> {
  const blocked = await jobs.blocked()
  if (blocked) throw new Error(blocked)
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await jobs.sendInTransaction(trx, queue, { probe: true }))) {
        throw new Error('the job system did not take the job')
      }
      throw new ProbeRolledBack()
    })
  } catch (error) {
    if (!(error instanceof ProbeRolledBack)) throw error
  }
}
