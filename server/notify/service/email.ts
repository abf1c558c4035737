// An account's email addresses for digests: add one (a confirmation link is mailed to it), list,
// remove; and the two links an email carries, which work without signing in: confirm an address,
// stop one series' digests to one address.
import { createHash } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import type { Limits } from '#server/limits/policies.ts'
import type { LockAccount } from '#server/notify/account-lock.ts'
import { type EmailAddressView, MAX_ADDRESSES_PER_ACCOUNT } from '#server/notify/contract.ts'
import { queueConfirmation } from '#server/notify/email/deliveries.ts'
import { hashConfirmationToken, newConfirmationToken, type UnsubscribeTokens } from '#server/notify/email/tokens.ts'
import type { Deliveries } from '#server/notify/repository/deliveries.ts'
import {
  countEmailAddresses,
  deleteEmailAddress,
  type EmailAddressRecord,
  insertEmailOptOut,
  listEmailAddresses,
  lockEmailAddress,
  upsertEmailAddress,
  verifyEmailToken,
} from '#server/notify/repository/email-addresses.ts'

export type EmailServiceDeps = {
  db: Db
  jobs: Jobs
  /** Signs and checks the unsubscribe links (server/notify/email/tokens.ts). */
  unsubscribeTokens: UnsubscribeTokens
  /** A confirmation's token waits sealed in its delivery. */
  deliveries: Deliveries
  enabled: boolean
  limits: Pick<Limits, 'confirmationsAccount' | 'confirmationsAddress'>
  /** Holds the account's row while its addresses are counted (the accounts module's; a port). */
  lockAccount: LockAccount
}

/** A confirmation is mailed again for the same address at most this often. */
const RESEND_AFTER_MS = 60_000

export type AddAddressOutcome =
  | { ok: true; address: EmailAddressView }
  | { ok: false; reason: 'off' | 'limit' | 'too_soon' }
  /** Too many confirmation emails from this account, or to this address: when the next may go. */
  | { ok: false; reason: 'rate_limited'; decision: LimitDecision }

function viewAddress(row: EmailAddressRecord): EmailAddressView {
  return {
    addressId: row.id,
    address: row.address,
    verified: row.verified_at !== null,
    createdAt: row.created_at.toISOString(),
  }
}

export function createEmailService(deps: EmailServiceDeps) {
  const { db, jobs } = deps
  type Mailing = { mailed: boolean; result: AddAddressOutcome }

  /** The address added (or its link mailed again) with its confirmation queued, or why not. */
  function mailConfirmation(accountId: string, address: string): Promise<Mailing> {
    return jobs.transaction(db, async (trx): Promise<Mailing> => {
      // The account's row lock queues concurrent adds, so the count below holds (the address row's
      // lock cannot: a new address has no row yet).
      await deps.lockAccount(trx, accountId)
      const existing = await lockEmailAddress(trx, accountId, address)
      if (existing?.verified_at) return { mailed: false, result: { ok: true, address: viewAddress(existing) } }
      const now = new Date()
      if (existing?.token_sent_at && now.getTime() - existing.token_sent_at.getTime() < RESEND_AFTER_MS) {
        return { mailed: false, result: { ok: false, reason: 'too_soon' } }
      }
      if (!existing && (await countEmailAddresses(trx, accountId)) >= MAX_ADDRESSES_PER_ACCOUNT) {
        return { mailed: false, result: { ok: false, reason: 'limit' } }
      }
      const token = newConfirmationToken(now)
      const addressId = await upsertEmailAddress(trx, {
        account_id: accountId,
        address,
        token_hash: token.hash,
        token_expires_at: token.expiresAt,
        token_sent_at: now,
      })
      await queueConfirmation(trx, jobs, deps.deliveries, { addressId, token: token.token })
      const row = await lockEmailAddress(trx, accountId, address)
      return { mailed: true, result: { ok: true, address: viewAddress(row as EmailAddressRecord) } }
    })
  }

  return {
    /** False without SMTP_URL: nothing is mailed, and addresses and digests cannot be set up. */
    enabled: deps.enabled,

    list: async (accountId: string): Promise<EmailAddressView[]> =>
      (await listEmailAddresses(db, accountId)).map(viewAddress),

    /**
     * Adds the address (or, unverified, mails its link again) and queues its confirmation email.
     * A verified address is answered as it is, with nothing mailed.
     */
    async add(accountId: string, input: string): Promise<AddAddressOutcome> {
      if (!deps.enabled) return { ok: false, reason: 'off' }
      const address = input.trim().toLowerCase()
      // Counted before the mail is queued and given back when none is: a confirmation is mail sent to
      // someone who did not ask for it, so both who sends and who receives are limited.
      const recipient = createHash('sha256').update(address).digest('hex')
      const toAddress = await deps.limits.confirmationsAddress.check(recipient)
      if (!toAddress.allowed) return { ok: false, reason: 'rate_limited', decision: toAddress }
      const fromAccount = await deps.limits.confirmationsAccount.check(accountId)
      if (!fromAccount.allowed) {
        await deps.limits.confirmationsAddress.refund(recipient, toAddress)
        return { ok: false, reason: 'rate_limited', decision: fromAccount }
      }
      const outcome = await mailConfirmation(accountId, address).catch(async (error: unknown) => {
        await refund()
        throw error
      })
      if (!outcome.mailed) await refund()
      return outcome.result
      async function refund() {
        await deps.limits.confirmationsAddress.refund(recipient, toAddress)
        await deps.limits.confirmationsAccount.refund(accountId, fromAccount)
      }
    },

    remove: (accountId: string, addressId: string): Promise<boolean> => deleteEmailAddress(db, accountId, addressId),

    /** The confirmation link: verifies its address once; undefined for an unknown, used or expired token. */
    async confirm(token: string): Promise<{ address: string } | undefined> {
      if (token.length === 0 || token.length > 200) return undefined
      const verified = await verifyEmailToken(db, hashConfirmationToken(token), new Date())
      return verified && { address: verified.address }
    },

    /** The unsubscribe link: that series' digests stop going to that address; false for a token that is not ours. */
    async unsubscribe(token: string): Promise<boolean> {
      const named = deps.unsubscribeTokens.read(token)
      return named ? insertEmailOptOut(db, named.seriesId, named.addressId) : false
    },
  }
}

export type EmailService = ReturnType<typeof createEmailService>
