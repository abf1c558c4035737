import { type Kysely, sql } from 'kysely'

// A provider's concurrency limit shared by every process (issue 42, item 1; decision 041): one row a
// slot, held by one call at a time (`holder`) until it ends or its lease (`expires_at`) runs out, so a
// process that died mid-call holds no slot for long.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_slots')
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('slot', 'integer', (column) => column.notNull())
    .addColumn('holder', 'uuid')
    .addColumn('expires_at', 'timestamptz')
    .addPrimaryKeyConstraint('provider_slots_pkey', ['provider', 'slot'])
    .execute()
  await sql`alter table provider_slots add constraint provider_slots_held check ((holder is null) = (expires_at is null))`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('provider_slots').execute()
}
