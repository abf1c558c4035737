// Webhook deliveries already received, keyed by the platform's own id (Slack's event_id, GitHub's
// X-GitHub-Delivery). A retry or redelivery finds its row and starts nothing; the row is in Postgres,
// so that holds across restarts and instances.
import type { Db } from '#db/database.ts'
import type { WebhookProvider } from '#db/schema.ts'

/** True the first time this delivery is seen; false for a retry. */
export async function recordReceipt(trx: Db, provider: WebhookProvider, deliveryId: string): Promise<boolean> {
  const row = await trx
    .insertInto('webhook_receipts')
    .values({ provider, delivery_id: deliveryId })
    .onConflict((conflict) => conflict.columns(['provider', 'delivery_id']).doNothing())
    .returning('delivery_id')
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Marks a received delivery handled, in the transaction that acts on it: true once, false when an
 * earlier attempt (a retried job) already acted. The row lock makes two attempts take turns.
 */
export async function claimReceipt(trx: Db, provider: WebhookProvider, deliveryId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('webhook_receipts')
    .select('handled_at')
    .where('provider', '=', provider)
    .where('delivery_id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst()
  if (!row || row.handled_at) return false
  await trx
    .updateTable('webhook_receipts')
    .set({ handled_at: new Date() })
    .where('provider', '=', provider)
    .where('delivery_id', '=', deliveryId)
    .execute()
  return true
}

export async function purgeReceipts(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_receipts').where('received_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
