import { type Kysely, sql } from 'kysely'

// Recurring briefs. A series owns the brief; each of its runs fills one numbered slot, and a unique
// (series_id, series_slot) makes "one run per slot" a fact of the database, whatever the workers do.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('series')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('brief', 'jsonb', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('active').check(sql`status in ('active', 'paused', 'cancelled')`),
    )
    .addColumn('slot', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_run_at', 'timestamptz')
    .addColumn('scheduled_after_run_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('series_account_idx').on('series').columns(['account_id', 'created_at desc']).execute()
  await db.schema
    .alterTable('runs')
    .addColumn('series_id', 'uuid', (column) => column.references('series.id').onDelete('set null'))
    .addColumn('series_slot', 'integer')
    .execute()
  await sql`create unique index runs_series_slot_key on runs (series_id, series_slot) where series_id is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('series_slot').dropColumn('series_id').execute()
  await db.schema.dropTable('series').execute()
}
