// What Sextant owes an email address, as deliveries rows the `deliver` job sends: a confirmation
// (kind 'notice', its token sealed in the row's notice until sent) and a run's digest (kind 'digest',
// one row per run listing its recipients; the job sends to them in turn, counting them in parts_sent,
// so a retry never mails anyone twice).
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Deliveries } from '#server/notify/repository/deliveries.ts'
import { findDigestRecipients } from '#server/notify/repository/email-addresses.ts'
import type { RunEndHook } from '#server/runs/contract.ts'

export const ConfirmationTargetSchema = z.object({ addressId: z.uuid() })
export const DigestTargetSchema = z.object({ seriesId: z.uuid(), addressIds: z.array(z.uuid()) })

/** Queues the confirmation email of an address, in the caller's transaction (opened by jobs.transaction). */
export async function queueConfirmation(
  trx: Db,
  jobs: Jobs,
  deliveries: Deliveries,
  input: { addressId: string; token: string },
): Promise<void> {
  const id = randomUUID()
  // The token waits sealed in the row's notice until the email is sent.
  await deliveries.insert(trx, {
    id,
    run_id: null,
    channel: 'email',
    kind: 'notice',
    target: JSON.stringify({ addressId: input.addressId }),
    notice: input.token,
  })
  await jobs.send(DELIVER, { deliveryId: id }, { trx })
}

/**
 * What a run's end owes email (a hook of server/runs/end.ts): a complete run worth telling of
 * a series that sends digests is mailed to its recipients. Email off (no SMTP_URL): nothing is queued.
 */
export function emailDigestWhenEnded(jobs: Jobs, deliveries: Deliveries, enabled: boolean): RunEndHook<Db> {
  return async (trx, { runId, seriesId, outcome, worthTelling }) => {
    if (!enabled || !worthTelling || !seriesId || outcome.status !== 'complete') return
    const recipients = await findDigestRecipients(trx, seriesId)
    if (recipients.length === 0) return
    const target = { seriesId, addressIds: recipients.map((recipient) => recipient.id) }
    const id = await deliveries.insert(trx, {
      run_id: runId,
      channel: 'email',
      kind: 'digest',
      target: JSON.stringify(target),
    })
    if (id) await jobs.send(DELIVER, { deliveryId: id }, { trx })
  }
}
