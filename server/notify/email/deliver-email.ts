// The `deliver` job's email channel: a confirmation link, or a run's digest to each of its
// recipients in turn. An address is checked again as its mail goes out: one removed, unverified or
// unsubscribed since the run ended gets nothing. A recipient the mail server refuses for good is
// skipped (and the refusal recorded); a passing failure retries the row from the next recipient.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import { afterFailedAttempt } from '#server/notify/delivery-attempts.ts'
import { DeliveryError } from '#server/notify/delivery-error.ts'
import { ConfirmationTargetSchema, DigestTargetSchema } from '#server/notify/email/deliveries.ts'
import { digestEmail } from '#server/notify/email/digest.ts'
import type { Email, Mailer } from '#server/notify/email/mailer.ts'
import type { UnsubscribeTokens } from '#server/notify/email/tokens.ts'
import { type DeliveryRecord, markPartsSent, markSent } from '#server/notify/repository/deliveries.ts'
import { findEmailAddress, isDigestRecipient } from '#server/notify/repository/email-addresses.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'

export type EmailDeliverDeps = {
  db: Db
  /** The run a digest is about (the runs module's; a port). */
  runs: RunsToTell
  unsubscribeTokens: UnsubscribeTokens
  jobs: Jobs
  log: Logger
  mailer: Mailer | undefined
  settings: { publicUrl: string }
}

export async function deliverEmail(deps: EmailDeliverDeps, delivery: DeliveryRecord): Promise<void> {
  if (delivery.status !== 'pending') return
  const deliveryId = delivery.id
  try {
    if (!deps.mailer) throw new DeliveryError('email is off: SMTP_URL is not set', 'never')
    if (delivery.kind === 'digest') await sendDigest(deps, deps.mailer, delivery)
    else await sendConfirmation(deps, deps.mailer, delivery)
    await markSent(deps.db, deliveryId)
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error // ours (the database): pg-boss retries the job
    await afterFailedAttempt(deps, delivery, error)
  }
}

async function sendConfirmation(deps: EmailDeliverDeps, mailer: Mailer, delivery: DeliveryRecord): Promise<void> {
  const { addressId } = ConfirmationTargetSchema.parse(delivery.target)
  const address = await findEmailAddress(deps.db, addressId)
  // Removed or already verified since: nothing to confirm.
  if (!address || address.verified_at) return
  const token = delivery.notice
  if (!token) throw new DeliveryError('the confirmation token is missing', 'never')
  await mailer.send(confirmationEmail(address.address, `${deps.settings.publicUrl}/email/confirm?token=${token}`))
}

function confirmationEmail(to: string, link: string): Email {
  const text = [
    'Someone (we hope you) asked Sextant to send research digests to this address.',
    '',
    `Confirm it within 24 hours: ${link}`,
    '',
    'If it was not you, ignore this email: nothing will be sent to you.',
  ].join('\n')
  const href = link.replaceAll('&', '&amp;').replaceAll('"', '&quot;')
  const html = [
    '<!doctype html><html><body>',
    '<p>Someone (we hope you) asked Sextant to send research digests to this address.</p>',
    `<p><a href="${href}">Confirm this address</a> within 24 hours.</p>`,
    '<p>If it was not you, ignore this email: nothing will be sent to you.</p>',
    '</body></html>',
  ].join('\n')
  return { to, subject: 'Confirm your address for Sextant digests', text, html }
}

async function sendDigest(deps: EmailDeliverDeps, mailer: Mailer, delivery: DeliveryRecord): Promise<void> {
  const { seriesId, addressIds } = DigestTargetSchema.parse(delivery.target)
  const { publicUrl } = deps.settings
  const run = delivery.run_id ? await deps.runs.view(deps.db, delivery.run_id, { publicUrl }) : undefined
  if (!run) throw new DeliveryError('the run no longer exists', 'never')
  for (let part = delivery.parts_sent; part < addressIds.length; part++) {
    const addressId = addressIds[part] as string
    const address = await findEmailAddress(deps.db, addressId)
    if (address && (await isDigestRecipient(deps.db, seriesId, addressId))) {
      const links = {
        runUrl: `${publicUrl}/dashboard/runs/${run.runId}`,
        unsubscribeUrl: `${publicUrl}/email/unsubscribe?token=${deps.unsubscribeTokens.make(seriesId, addressId)}`,
      }
      try {
        await mailer.send(digestEmail(run, address.address, links))
      } catch (error) {
        if (!(error instanceof DeliveryError) || error.retry !== 'never') throw error
        deps.log.warn({ deliveryId: delivery.id, addressId, error: error.message }, 'a digest recipient was refused')
      }
    }
    await markPartsSent(deps.db, delivery.id, part + 1)
  }
}
