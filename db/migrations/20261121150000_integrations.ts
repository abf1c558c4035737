import { type Kysely, sql } from 'kysely'

// Slack and GitHub: which workspace or repository belongs to which account (the Slack bot token
// sealed like memory), the webhook deliveries already received (so a retry starts nothing twice),
// and the messages Sextant owes a chat thread or pull request.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('slack_workspaces')
    .addColumn('team_id', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('bot_token_key_id', 'text', (column) => column.notNull())
    .addColumn('bot_token', 'bytea', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('github_repositories')
    .addColumn('repo_key', 'text', (column) => column.primaryKey())
    .addColumn('repo', 'text', (column) => column.notNull())
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('webhook_receipts')
    .addColumn('provider', 'text', (column) => column.notNull().check(sql`provider in ('slack', 'github')`))
    .addColumn('delivery_id', 'text', (column) => column.notNull())
    .addColumn('received_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('handled_at', 'timestamptz')
    .addPrimaryKeyConstraint('webhook_receipts_pkey', ['provider', 'delivery_id'])
    .execute()

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('run_id', 'uuid', (column) => column.references('runs.id').onDelete('cascade'))
    .addColumn('channel', 'text', (column) => column.notNull().check(sql`channel in ('slack', 'github')`))
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('started', 'result', 'notice')`))
    .addColumn('target', 'jsonb', (column) => column.notNull())
    .addColumn('notice', 'text')
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('pending').check(sql`status in ('pending', 'sent', 'failed')`),
    )
    .addColumn('parts_sent', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute()
  // One "researching" and one result per run, however often a run's end is announced.
  await sql`create unique index deliveries_run_kind_key on deliveries (run_id, kind) where run_id is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deliveries').execute()
  await db.schema.dropTable('webhook_receipts').execute()
  await db.schema.dropTable('github_repositories').execute()
  await db.schema.dropTable('slack_workspaces').execute()
}
