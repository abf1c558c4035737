// The api_keys table: SQL only, the database (or the caller's transaction) first. A key is found by
// its prefix; its secret is stored only as the hash server/accounts/api-keys.ts makes and checks.
import type { Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { ApiKeysTable } from '#db/schema.ts'

export type ApiKeyRow = Selectable<ApiKeysTable>

export async function insertApiKey(
  db: Db,
  values: { accountId: string; prefix: string; secretHash: string; name: string; kind: ApiKeyRow['kind'] },
): Promise<ApiKeyRow> {
  return db
    .insertInto('api_keys')
    .values({
      account_id: values.accountId,
      prefix: values.prefix,
      secret_hash: values.secretHash,
      name: values.name,
      kind: values.kind,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The account's keys, newest first, revoked ones too. */
export async function listApiKeyRows(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .execute()
}

export async function countActiveApiKeys(db: Db, accountId: string): Promise<number> {
  const { active } = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('active'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(active)
}

/** The key with this prefix, revoked or not. */
export async function findApiKeyByPrefix(db: Db, prefix: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('prefix', '=', prefix).executeTakeFirst()
}

export async function touchApiKey(db: Db, keyId: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: new Date() }).where('id', '=', keyId).execute()
}

/**
 * Revokes the active key with this prefix (with `accountId`, only if it belongs to that account);
 * its row, or undefined when there was no such active key.
 */
export async function revokeApiKeyRow(db: Db, prefix: string, accountId?: string): Promise<ApiKeyRow | undefined> {
  let query = db.updateTable('api_keys').set({ revoked_at: new Date() }).where('prefix', '=', prefix)
  if (accountId) query = query.where('account_id', '=', accountId)
  return query.where('revoked_at', 'is', null).returningAll().executeTakeFirst()
}

/** Revokes every active key of the account but the one with `keptPrefix`. */
export async function revokeOtherApiKeys(db: Db, accountId: string, keptPrefix: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('account_id', '=', accountId)
    .where('prefix', '!=', keptPrefix)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Gives the key a new secret hash and makes it active again. */
export async function resetApiKeySecret(db: Db, keyId: string, secretHash: string): Promise<void> {
  await db.updateTable('api_keys').set({ secret_hash: secretHash, revoked_at: null }).where('id', '=', keyId).execute()
}
