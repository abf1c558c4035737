// The email_addresses and email_opt_outs tables: SQL only, the database (or the caller's transaction)
// first. What a token means (hashing, expiry, signing unsubscribe links) is server/notify/email's.
import type { Insertable, Selectable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { EmailAddressesTable } from '#db/schema.ts'
import { UUID } from '#server/text/uuid.ts'

export type EmailAddressRecord = Selectable<EmailAddressesTable>

export async function listEmailAddresses(db: Db, accountId: string): Promise<EmailAddressRecord[]> {
  return db
    .selectFrom('email_addresses')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

export async function countEmailAddresses(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('email_addresses')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The account's row for the address, locked for the rest of the caller's transaction. */
export async function lockEmailAddress(
  db: Db,
  accountId: string,
  address: string,
): Promise<EmailAddressRecord | undefined> {
  return db
    .selectFrom('email_addresses')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('address', '=', address)
    .forUpdate()
    .executeTakeFirst()
}

export async function findEmailAddress(db: Db, id: string): Promise<EmailAddressRecord | undefined> {
  if (!UUID.test(id)) return undefined
  return db.selectFrom('email_addresses').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Inserts the address, or gives an existing one a new confirmation token; answers its id. */
export async function upsertEmailAddress(db: Db, values: Insertable<EmailAddressesTable>): Promise<string> {
  const row = await db
    .insertInto('email_addresses')
    .values(values)
    .onConflict((conflict) =>
      conflict.columns(['account_id', 'address']).doUpdateSet({
        token_hash: values.token_hash ?? null,
        token_expires_at: values.token_expires_at ?? null,
        token_sent_at: values.token_sent_at ?? null,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Uses a confirmation token: the address is verified and the token cleared, if it has not expired. */
export async function verifyEmailToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<Pick<EmailAddressRecord, 'id' | 'address'> | undefined> {
  return db
    .updateTable('email_addresses')
    .set({ verified_at: now, token_hash: null, token_expires_at: null })
    .where('token_hash', '=', tokenHash)
    .where('token_expires_at', '>', now)
    .returning(['id', 'address'])
    .executeTakeFirst()
}

export async function deleteEmailAddress(db: Db, accountId: string, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false
  const deleted = await db
    .deleteFrom('email_addresses')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return deleted.numDeletedRows > 0n
}

/**
 * Who gets a series' digest: the account's verified addresses that have not unsubscribed from it,
 * when the series sends digests at all.
 */
export async function findDigestRecipients(db: Db, seriesId: string): Promise<Array<{ id: string; address: string }>> {
  return db
    .selectFrom('series')
    .innerJoin('email_addresses', 'email_addresses.account_id', 'series.account_id')
    .select(['email_addresses.id', 'email_addresses.address'])
    .where('series.id', '=', seriesId)
    .where('series.email_digest', '=', true)
    .where('email_addresses.verified_at', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('email_opt_outs')
            .select('email_opt_outs.series_id')
            .whereRef('email_opt_outs.series_id', '=', 'series.id')
            .whereRef('email_opt_outs.address_id', '=', 'email_addresses.id'),
        ),
      ),
    )
    .orderBy('email_addresses.created_at')
    .orderBy('email_addresses.id')
    .execute()
}

/** Whether the address still gets the series' digest (checked again as each one is sent). */
export async function isDigestRecipient(db: Db, seriesId: string, addressId: string): Promise<boolean> {
  const recipients = await findDigestRecipients(db, seriesId)
  return recipients.some((recipient) => recipient.id === addressId)
}

/**
 * Stops the series' digests to the address; false when either is gone or they belong to different
 * accounts. Unsubscribing twice is fine.
 */
export async function insertEmailOptOut(db: Db, seriesId: string, addressId: string): Promise<boolean> {
  const pair = await db
    .selectFrom('series')
    .innerJoin('email_addresses', 'email_addresses.account_id', 'series.account_id')
    .select(['series.id as series_id', 'email_addresses.id as address_id'])
    .where('series.id', '=', seriesId)
    .where('email_addresses.id', '=', addressId)
    .executeTakeFirst()
  if (!pair) return false
  await db
    .insertInto('email_opt_outs')
    .values(pair)
    .onConflict((conflict) => conflict.columns(['series_id', 'address_id']).doNothing())
    .execute()
  return true
}
