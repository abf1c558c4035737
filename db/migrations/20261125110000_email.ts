import { type Kysely, sql } from 'kysely'

// Email digests (issue 20, step 4). An account's addresses, each verified by a link mailed to it
// (only the token's SHA-256 is kept, until it is used or expires); a series' `email_digest` sends
// each run worth telling to the account's verified addresses, except those that unsubscribed from
// that series (`email_opt_outs`, written by the unsubscribe link in each digest).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_addresses')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('address', 'text', (column) => column.notNull())
    .addColumn('verified_at', 'timestamptz')
    .addColumn('token_hash', 'text')
    .addColumn('token_expires_at', 'timestamptz')
    .addColumn('token_sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('email_addresses_account_address_key', ['account_id', 'address'])
    .execute()
  await sql`create unique index email_addresses_token_hash_key on email_addresses (token_hash) where token_hash is not null`.execute(
    db,
  )
  await db.schema
    .createTable('email_opt_outs')
    .addColumn('series_id', 'uuid', (column) => column.notNull().references('series.id').onDelete('cascade'))
    .addColumn('address_id', 'uuid', (column) => column.notNull().references('email_addresses.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('email_opt_outs_pkey', ['series_id', 'address_id'])
    .execute()
  await db.schema
    .alterTable('series')
    .addColumn('email_digest', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from deliveries where channel = 'email'`.execute(db)
  await db.schema.alterTable('series').dropColumn('email_digest').execute()
  await db.schema.dropTable('email_opt_outs').execute()
  await db.schema.dropTable('email_addresses').execute()
}
