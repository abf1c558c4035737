import { type Kysely, sql } from 'kysely'

// Signed outbound webhooks (issue 20, step 3). An account's endpoints, each with its own signing
// secret sealed with the key ring (bound to the endpoint's id), and the account's own signing secret
// for a brief's one-off `webhookUrl`, made on first need. An endpoint counts its consecutive failed
// attempts and is disabled, with the reason, past WEBHOOK_DISABLE_AFTER. A run may owe several
// webhook events (one per endpoint and event type), so the one-row-per-run-and-kind rule of
// deliveries keeps to the other kinds and events are unique per run and target instead.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('events', sql`text[]`, (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('secret_key_id', 'text', (column) => column.notNull())
    .addColumn('secret', 'bytea', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`),
    )
    .addColumn('consecutive_failures', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('secret_rotated_at', 'timestamptz')
    .execute()
  await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').column('account_id').execute()

  await db.schema
    .createTable('webhook_account_secrets')
    .addColumn('account_id', 'uuid', (column) => column.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('secret_key_id', 'text', (column) => column.notNull())
    .addColumn('secret', 'bytea', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()

  await sql`drop index deliveries_run_kind_key`.execute(db)
  await sql`create unique index deliveries_run_kind_key on deliveries (run_id, kind)
    where run_id is not null and kind <> 'event'`.execute(db)
  await sql`create unique index deliveries_run_event_key on deliveries (run_id, target)
    where kind = 'event'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from deliveries where kind = 'event'`.execute(db)
  await sql`drop index deliveries_run_event_key`.execute(db)
  await sql`drop index deliveries_run_kind_key`.execute(db)
  await sql`create unique index deliveries_run_kind_key on deliveries (run_id, kind) where run_id is not null`.execute(
    db,
  )
  await db.schema.dropTable('webhook_account_secrets').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
