import type { Kysely } from 'kysely'

// A provider that answered 429 is paused for every process (issue 42, item 2; decision 038): until
// `until`, no process calls it. One row per provider; a later 429 only ever moves `until` later.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_pauses')
    .addColumn('provider', 'text', (column) => column.primaryKey())
    .addColumn('until', 'timestamptz', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('provider_pauses').execute()
}
