import { type Kysely, sql } from 'kysely'

// Accounts, API keys, dashboard sessions, the rate limiter's store and idempotency records.
// No secret is stored in the clear: passwords and key secrets are argon2id hashes, session
// tokens are SHA-256 hashes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('kind', 'text', (column) =>
      column.notNull().defaultTo('standard').check(sql`kind in ('standard', 'local', 'demo')`),
    )
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`create unique index accounts_email_key on accounts (lower(email))`.execute(db)

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('prefix', 'text', (column) => column.notNull().unique())
    .addColumn('secret_hash', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) =>
      column.notNull().defaultTo('standard').check(sql`kind in ('standard', 'demo')`),
    )
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('api_keys_account_id_idx').on('api_keys').column('account_id').execute()

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('sessions_account_id_idx').on('sessions').column('account_id').execute()

  // The table rate-limiter-flexible's RateLimiterPostgres expects (created here: tableCreated: true).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('points', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('request_hash', 'text', (column) => column.notNull())
    .addColumn('status', 'integer')
    .addColumn('body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['account_id', 'key'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['idempotency_keys', 'rate_limits', 'sessions', 'api_keys', 'accounts']) {
    await db.schema.dropTable(table).execute()
  }
}
