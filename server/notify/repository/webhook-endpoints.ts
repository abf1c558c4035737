// The webhook_endpoints and webhook_account_secrets tables: SQL only, the database (or the caller's
// transaction) first. Sealing the secrets and checking URLs is server/notify/webhooks/'s.
import { type Insertable, type Selectable, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { WebhookAccountSecretsTable, WebhookEndpointsTable } from '#db/schema.ts'
import type { WebhookEventType } from '#server/vocabulary/notify.ts'

export type WebhookEndpointRecord = Selectable<WebhookEndpointsTable>
export type WebhookAccountSecretRecord = Selectable<WebhookAccountSecretsTable>

export async function insertWebhookEndpoint(
  db: Db,
  values: Insertable<WebhookEndpointsTable>,
): Promise<WebhookEndpointRecord> {
  return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow()
}

export async function listWebhookEndpoints(db: Db, accountId: string): Promise<WebhookEndpointRecord[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

export async function findWebhookEndpoint(
  db: Db,
  id: string,
  accountId?: string,
): Promise<WebhookEndpointRecord | undefined> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id)
  if (accountId !== undefined) query = query.where('account_id', '=', accountId)
  return query.executeTakeFirst()
}

/** The account's active endpoints that subscribe to the event type. */
export async function subscribedEndpointIds(db: Db, accountId: string, type: WebhookEventType): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .where(sql<boolean>`${type} = any(events)`)
    .orderBy('created_at')
    .execute()
  return rows.map((row) => row.id)
}

export async function countWebhookEndpoints(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function deleteWebhookEndpoint(db: Db, id: string, accountId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function replaceWebhookSecret(
  db: Db,
  id: string,
  accountId: string,
  sealed: { keyId: string; ciphertext: Buffer },
): Promise<WebhookEndpointRecord | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ secret_key_id: sealed.keyId, secret: sealed.ciphertext, secret_rotated_at: new Date() })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst()
}

/** A delivered attempt: the count of consecutive failures starts again. */
export async function recordEndpointSuccess(db: Db, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0, last_success_at: new Date() })
    .where('id', '=', id)
    .execute()
}

/**
 * A failed attempt, counted; at `disableAfter` consecutive ones an active endpoint is disabled with
 * `reason`. Answers the count and whether this attempt disabled it.
 */
export async function recordEndpointFailure(
  db: Db,
  id: string,
  input: { disableAfter: number; reason: string },
): Promise<{ failures: number; disabled: boolean } | undefined> {
  const disabling = sql<boolean>`status = 'active' and consecutive_failures + 1 >= ${input.disableAfter}`
  const row = await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', 1),
      last_failure_at: new Date(),
      status: sql`case when ${disabling} then 'disabled' else status end`,
      disabled_at: sql`case when ${disabling} then now() else disabled_at end`,
      disabled_reason: sql`case when ${disabling} then ${input.reason}::text else disabled_reason end`,
    }))
    .where('id', '=', id)
    .returning(['consecutive_failures', 'status', 'disabled_at'])
    .executeTakeFirst()
  if (!row) return undefined
  return {
    failures: row.consecutive_failures,
    disabled: row.consecutive_failures === input.disableAfter && row.status === 'disabled',
  }
}

export async function findAccountSecret(db: Db, accountId: string): Promise<WebhookAccountSecretRecord | undefined> {
  return db.selectFrom('webhook_account_secrets').selectAll().where('account_id', '=', accountId).executeTakeFirst()
}

/** Stores the secret unless the account has one (two first needs at once keep the first). */
export async function insertAccountSecret(db: Db, values: Insertable<WebhookAccountSecretsTable>): Promise<void> {
  await db
    .insertInto('webhook_account_secrets')
    .values(values)
    .onConflict((conflict) => conflict.column('account_id').doNothing())
    .execute()
}

export async function replaceAccountSecret(db: Db, values: Insertable<WebhookAccountSecretsTable>): Promise<void> {
  await db
    .insertInto('webhook_account_secrets')
    .values(values)
    .onConflict((conflict) =>
      conflict
        .column('account_id')
        .doUpdateSet({ secret_key_id: values.secret_key_id, secret: values.secret, created_at: new Date() }),
    )
    .execute()
}
