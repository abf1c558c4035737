// The sweep of deliveries their job gave up on. The `deliver` job retries a platform's refusal itself
// (deliver.ts), but a failure of ours (the database, a bug) is pg-boss's to retry, and once those
// retries are spent (or the job expired, was cancelled, or is gone) the row would stay 'pending'
// for good. The sweep finds each pending row with no job left to work it and counts the lost job as
// one attempt: under MAX_ATTEMPTS it queues a new job, at the limit it marks the row failed with why.
// Row and job change in one transaction, under the row's lock, so two sweeps never double a job.
import type { Db } from '#db/database.ts'
import { JOBS_SCHEMA, type Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import { MAX_ATTEMPTS } from '#server/notify/delivery-attempts.ts'
import {
  type DeliveryJobs,
  findStrandedDeliveries,
  lockStrandedDelivery,
  recordFailedAttempt,
} from '#server/notify/repository/deliveries.ts'

export type SweepDeps = { db: Db; jobs: Jobs; log: Logger }

/** Rows per sweep: a backlog drains over a few sweeps instead of one long transaction burst. */
const SWEEP_BATCH = 100
const DELIVERY_JOBS: DeliveryJobs = { jobsSchema: JOBS_SCHEMA, queue: DELIVER.queue }

export async function sweepDeliveries(deps: SweepDeps): Promise<{ retried: number; failed: number }> {
  const stranded = await findStrandedDeliveries(deps.db, DELIVERY_JOBS, SWEEP_BATCH)
  const swept = { retried: 0, failed: 0 }
  for (const found of stranded) {
    const { id } = found
    const outcome = await deps.jobs.transaction(deps.db, async (trx) => {
      const row = await lockStrandedDelivery(trx, DELIVERY_JOBS, found)
      if (!row) return undefined
      const attempts = row.attempts + 1
      const final = attempts >= MAX_ATTEMPTS
      const lost = row.jobState ? `its delivery job ended ${row.jobState}` : 'no delivery job was left for it'
      const error = final
        ? `${lost}; gave up after ${attempts} attempts`
        : `${lost}; retried (attempt ${attempts + 1} of ${MAX_ATTEMPTS})`
      await recordFailedAttempt(trx, id, { attempts, error, final })
      if (!final) await deps.jobs.send(DELIVER, { deliveryId: id }, { trx })
      deps.log.warn({ deliveryId: id, attempts, jobState: row.jobState, final }, 'swept a stranded delivery')
      return final ? 'failed' : 'retried'
    })
    if (outcome) swept[outcome]++
  }
  return swept
}
