// The webhook_receipts table: SQL only, the database (or the caller's transaction) first. What a
// receipt means (its sealed mention text, handled once) is server/chat/receipts.ts's.
import type { Insertable, Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { WebhookReceiptsTable } from '#db/schema.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

export type ReceiptRow = Selectable<WebhookReceiptsTable>

/** Inserts the receipt; false when the platform's delivery id was already received. */
export async function insertReceipt(db: Db, values: Insertable<WebhookReceiptsTable>): Promise<boolean> {
  const row = await db
    .insertInto('webhook_receipts')
    .values(values)
    .onConflict((conflict) => conflict.columns(['provider', 'delivery_id']).doNothing())
    .returning('delivery_id')
    .executeTakeFirst()
  return row !== undefined
}

/** The receipt, locked for the rest of the caller's transaction: two attempts to act on it take turns. */
export async function lockReceipt(
  db: Db,
  provider: ChatChannel,
  deliveryId: string,
): Promise<Pick<ReceiptRow, 'handled_at' | 'payload_key_id' | 'payload'> | undefined> {
  return db
    .selectFrom('webhook_receipts')
    .select(['handled_at', 'payload_key_id', 'payload'])
    .where('provider', '=', provider)
    .where('delivery_id', '=', deliveryId)
    .forUpdate()
    .executeTakeFirst()
}

/** Marks the receipt handled; its payload is dropped with it, being needed only until then. */
export async function markReceiptHandled(db: Db, provider: ChatChannel, deliveryId: string): Promise<void> {
  await db
    .updateTable('webhook_receipts')
    .set({ handled_at: new Date(), payload_key_id: null, payload: null })
    .where('provider', '=', provider)
    .where('delivery_id', '=', deliveryId)
    .execute()
}

/** Deletes receipts received before `before`; answers how many. */
export async function deleteReceiptsOlderThan(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_receipts').where('received_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
