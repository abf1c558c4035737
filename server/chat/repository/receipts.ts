// The webhook_receipts table: webhook deliveries already received, keyed by the platform's own id
// (Slack's event_id, GitHub's X-GitHub-Delivery). A retry or redelivery finds its row and starts
// nothing; the row is in Postgres, so that holds across restarts and instances. A mention's text
// waits on its row, sealed, until the job acts on it (the job itself carries only ids); acting clears
// it. The database (or the caller's transaction) first; the text comes and goes opened (decision 064).
import type { Insertable } from 'kysely'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { WebhookReceiptsTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'
import type { ChatChannel } from '#server/vocabulary/notify.ts'

/** What binds a receipt's sealed text to its row. */
export const receiptData = (provider: ChatChannel, deliveryId: string) => `webhook_receipt:${provider}:${deliveryId}`

const MentionPayloadSchema = z.object({ text: z.string() })

/** The table's SQL, with its sealed column's codec built once from the key ring. */
export function createReceipts(ring: KeyRing) {
  const payload = sealedColumn(ring, {
    name: 'webhook_receipts.payload',
    schema: MentionPayloadSchema,
    associatedData: receiptData,
  })
  return {
    /** True the first time this delivery is seen (its text is then stored, sealed); false for a retry. */
    async record(db: Db, provider: ChatChannel, deliveryId: string, text: string): Promise<boolean> {
      const sealed = payload.seal({ text }, provider, deliveryId)
      const values: Insertable<WebhookReceiptsTable> = {
        provider,
        delivery_id: deliveryId,
        payload_key_id: sealed.keyId,
        payload: sealed.ciphertext,
      }
      const row = await db
        .insertInto('webhook_receipts')
        .values(values)
        .onConflict((conflict) => conflict.columns(['provider', 'delivery_id']).doNothing())
        .returning('delivery_id')
        .executeTakeFirst()
      return row !== undefined
    },

    /**
     * Marks a received delivery handled, in the transaction that acts on it, and hands over its text
     * (null when none was kept), dropping it: once; undefined when an earlier attempt (a retried job)
     * already acted. The row lock makes two attempts take turns.
     */
    async claim(db: Db, provider: ChatChannel, deliveryId: string): Promise<{ text: string | null } | undefined> {
      const row = await db
        .selectFrom('webhook_receipts')
        .select(['handled_at', 'payload_key_id', 'payload'])
        .where('provider', '=', provider)
        .where('delivery_id', '=', deliveryId)
        .forUpdate()
        .executeTakeFirst()
      if (!row || row.handled_at) return undefined
      const kept = payload.open({ keyId: row.payload_key_id, ciphertext: row.payload }, provider, deliveryId)
      await db
        .updateTable('webhook_receipts')
        .set({ handled_at: new Date(), payload_key_id: null, payload: null })
        .where('provider', '=', provider)
        .where('delivery_id', '=', deliveryId)
        .execute()
      return { text: kept?.text ?? null }
    },

    /** Deletes receipts received before `before`; answers how many. */
    async deleteOlderThan(db: Db, before: Date): Promise<number> {
      const result = await db.deleteFrom('webhook_receipts').where('received_at', '<', before).executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

export type Receipts = ReturnType<typeof createReceipts>
