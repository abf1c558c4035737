import { type Kysely, sql } from 'kysely'

// Rate limits counted in slices of their window (issue 41, item 10; decision 006): per limited key and
// slice, the requests admitted in it. A slice counts for one window from its start, so what a client
// is told to wait never exceeds the window, which the two-window counter of `rate_limits` could not
// promise. `expires_at` is when a slice stops counting; the daily purge drops rows past it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_slices')
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('slice', 'bigint', (column) => column.notNull())
    .addColumn('hits', 'integer', (column) => column.notNull().check(sql`hits >= 0`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('rate_limit_slices_pkey', ['key', 'slice'])
    .execute()
  await db.schema.createIndex('rate_limit_slices_expires_idx').on('rate_limit_slices').column('expires_at').execute()
  await db.schema.dropTable('rate_limits').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (column) => column.primaryKey())
    .addColumn('points', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute()
  await db.schema.dropTable('rate_limit_slices').execute()
}
