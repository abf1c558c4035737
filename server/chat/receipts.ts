// Webhook deliveries already received, keyed by the platform's own id (Slack's event_id, GitHub's
// X-GitHub-Delivery). A retry or redelivery finds its row and starts nothing; the row is in Postgres,
// so that holds across restarts and instances. A mention's text waits on its row, sealed with the
// memory key ring, until the job acts on it (the job itself carries only ids); acting clears it.
// The SQL is server/chat/repository/receipts.ts's.
import type { Db } from '#db/database.ts'
import { insertReceipt, lockReceipt, markReceiptHandled } from '#server/chat/repository/receipts.ts'
import { type KeyRing, openColumn, sealJson } from '#server/memory/crypto.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

export const receiptData = (provider: ChatChannel, deliveryId: string) => `webhook_receipt:${provider}:${deliveryId}`

type MentionPayload = { text: string }

/** True the first time this delivery is seen (its text is then stored, sealed); false for a retry. */
export async function recordReceipt(
  trx: Db,
  ring: KeyRing,
  provider: ChatChannel,
  deliveryId: string,
  text: string,
): Promise<boolean> {
  const payload: MentionPayload = { text }
  const sealed = sealJson(ring, payload, receiptData(provider, deliveryId))
  return insertReceipt(trx, {
    provider,
    delivery_id: deliveryId,
    payload_key_id: sealed.keyId,
    payload: sealed.ciphertext,
  })
}

/**
 * Marks a received delivery handled, in the transaction that acts on it, and hands over its text
 * (null when none was kept): once; undefined when an earlier attempt (a retried job) already acted.
 * The row lock makes two attempts take turns.
 */
export async function claimReceipt(
  trx: Db,
  ring: KeyRing,
  provider: ChatChannel,
  deliveryId: string,
): Promise<{ text: string | null } | undefined> {
  const row = await lockReceipt(trx, provider, deliveryId)
  if (!row || row.handled_at) return undefined
  const payload = openColumn<MentionPayload>(ring, row.payload_key_id, row.payload, receiptData(provider, deliveryId))
  await markReceiptHandled(trx, provider, deliveryId)
  return { text: payload?.text ?? null }
}
