// What the `deliver` job does after a failed attempt, whatever the channel: a refusal (or the last
// attempt) is final and recorded; a passing failure is tried again after the time the platform asked
// for (Retry-After), else after an exponential backoff, by sending the job again with startAfter.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import type { DeliveryError } from '#server/notify/delivery-error.ts'
import { recordFailedAttempt } from '#server/notify/repository/deliveries.ts'
import type { DeliveryChannel, DeliveryKind } from '#server/vocabulary/notify.ts'

export const MAX_ATTEMPTS = 8
const MAX_BACKOFF_SECONDS = 15 * 60

type AttemptDeps = { db: Db; jobs: Jobs; log: Logger }

export async function afterFailedAttempt(
  deps: AttemptDeps,
  delivery: { id: string; channel: DeliveryChannel; kind: DeliveryKind; attempts: number },
  error: DeliveryError,
): Promise<void> {
  const attempts = delivery.attempts + 1
  const final = error.retry === 'never' || attempts >= MAX_ATTEMPTS
  await recordFailedAttempt(deps.db, delivery.id, { attempts, error: error.message, final })
  const log = {
    deliveryId: delivery.id,
    channel: delivery.channel,
    kind: delivery.kind,
    attempts,
    error: error.message,
  }
  if (final) {
    deps.log.warn(log, 'gave up on a delivery')
    return
  }
  const wait = error.retryAfterSeconds ?? Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** (attempts - 1))
  deps.log.info({ ...log, retryInSeconds: wait }, 'delivery will be retried')
  await sendDeliveryLater(deps.jobs, delivery.id, Math.max(1, wait))
}

export async function sendDeliveryLater(jobs: Jobs, deliveryId: string, seconds: number): Promise<void> {
  await jobs.send(DELIVER, { deliveryId }, { startAfter: seconds })
}
