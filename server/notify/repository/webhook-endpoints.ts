// The webhook_endpoints and webhook_account_secrets tables: SQL only, the database (or the caller's
// transaction) first. The signing secrets are sealed, each bound to its endpoint (or account), so a
// sealed secret copied to another row does not open: the statements that write or read one are
// createWebhookSecrets', built from the key ring, and take and give the secret as text (decision
// 064). Making secrets and checking URLs is server/notify/webhooks/'s.
import { type Selectable, sql } from 'kysely'
import type { Db } from '#db/database.ts'
import type { WebhookEndpointsTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedText } from '#server/crypto/sealed-column.ts'
import type { WebhookEventType } from '#server/vocabulary/notify.ts'

/** An endpoint's row, its sealed secret left out: only createWebhookSecrets reads it. */
export type WebhookEndpointRecord = Omit<Selectable<WebhookEndpointsTable>, 'secret' | 'secret_key_id'>

/** What binds a sealed signing secret to its endpoint, and the account's to its account. */
export const endpointSecretData = (endpointId: string) => `webhook_endpoint_secret:${endpointId}`
export const accountSecretData = (accountId: string) => `webhook_account_secret:${accountId}`

/** An endpoint to store, with its signing secret as text (sealed here). */
export type NewEndpointRow = {
  id: string
  accountId: string
  url: string
  events: WebhookEventType[]
  description: string | null
  secret: string
}

const ENDPOINT_COLUMNS = [
  'id',
  'account_id',
  'url',
  'events',
  'description',
  'status',
  'disabled_reason',
  'disabled_at',
  'consecutive_failures',
  'last_success_at',
  'last_failure_at',
  'created_at',
  'secret_rotated_at',
] as const satisfies ReadonlyArray<keyof WebhookEndpointRecord>

/** The statements that write or read a signing secret, with the two columns' codecs built once from the ring. */
export function createWebhookSecrets(ring: KeyRing) {
  const endpointSecret = sealedText(ring, { name: 'webhook_endpoints.secret', associatedData: endpointSecretData })
  const accountSecret = sealedText(ring, {
    name: 'webhook_account_secrets.secret',
    associatedData: accountSecretData,
  })
  return {
    async insertEndpoint(db: Db, input: NewEndpointRow): Promise<WebhookEndpointRecord> {
      const sealed = endpointSecret.seal(input.secret, input.id)
      return db
        .insertInto('webhook_endpoints')
        .values({
          id: input.id,
          account_id: input.accountId,
          url: input.url,
          events: input.events,
          description: input.description,
          secret_key_id: sealed.keyId,
          secret: sealed.ciphertext,
        })
        .returning(ENDPOINT_COLUMNS)
        .executeTakeFirstOrThrow()
    },

    /** Puts `secret` in force for the account's endpoint; undefined when it has no such endpoint. */
    async replaceEndpointSecret(
      db: Db,
      id: string,
      accountId: string,
      secret: string,
    ): Promise<WebhookEndpointRecord | undefined> {
      const sealed = endpointSecret.seal(secret, id)
      return db
        .updateTable('webhook_endpoints')
        .set({ secret_key_id: sealed.keyId, secret: sealed.ciphertext, secret_rotated_at: new Date() })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returning(ENDPOINT_COLUMNS)
        .executeTakeFirst()
    },

    /** The endpoint (of any account) with its signing secret opened, for an attempt to sign with. */
    async findEndpointWithSecret(
      db: Db,
      id: string,
    ): Promise<(WebhookEndpointRecord & { signingSecret: string }) | undefined> {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) return undefined
      const { secret, secret_key_id, ...endpoint } = row
      return { ...endpoint, signingSecret: endpointSecret.open({ keyId: secret_key_id, ciphertext: secret }, row.id) }
    },

    async accountSecret(db: Db, accountId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('webhook_account_secrets')
        .select(['secret_key_id', 'secret'])
        .where('account_id', '=', accountId)
        .executeTakeFirst()
      return row && accountSecret.open({ keyId: row.secret_key_id, ciphertext: row.secret }, accountId)
    },

    /** Stores the secret unless the account has one (two first needs at once keep the first). */
    async insertAccountSecret(db: Db, accountId: string, secret: string): Promise<void> {
      const sealed = accountSecret.seal(secret, accountId)
      await db
        .insertInto('webhook_account_secrets')
        .values({ account_id: accountId, secret_key_id: sealed.keyId, secret: sealed.ciphertext })
        .onConflict((conflict) => conflict.column('account_id').doNothing())
        .execute()
    },

    async replaceAccountSecret(db: Db, accountId: string, secret: string): Promise<void> {
      const sealed = accountSecret.seal(secret, accountId)
      await db
        .insertInto('webhook_account_secrets')
        .values({ account_id: accountId, secret_key_id: sealed.keyId, secret: sealed.ciphertext })
        .onConflict((conflict) =>
          conflict
            .column('account_id')
            .doUpdateSet({ secret_key_id: sealed.keyId, secret: sealed.ciphertext, created_at: new Date() }),
        )
        .execute()
    },
  }
}

export type WebhookSecrets = ReturnType<typeof createWebhookSecrets>

export async function listWebhookEndpoints(db: Db, accountId: string): Promise<WebhookEndpointRecord[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
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
