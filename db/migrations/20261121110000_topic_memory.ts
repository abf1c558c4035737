import { type Kysely, sql } from 'kysely'

// Topics per account, and each topic's memory: one AES-256-GCM blob (facts, sources, ledger, run
// history) with the id of the key that sealed it; the counts of the memory check stay in the clear.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('topics')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('topic_key', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('topics_account_topic_key', ['account_id', 'topic_key'])
    .execute()

  await db.schema
    .createTable('topic_memory')
    .addColumn('topic_id', 'uuid', (column) => column.primaryKey().references('topics.id').onDelete('cascade'))
    .addColumn('key_id', 'text', (column) => column.notNull())
    .addColumn('ciphertext', 'bytea', (column) => column.notNull())
    .addColumn('run_count', 'integer', (column) => column.notNull())
    .addColumn('urls_indexed', 'integer', (column) => column.notNull())
    .addColumn('facts_stored', 'integer', (column) => column.notNull())
    .addColumn('last_run_at', 'timestamptz', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('topic_memory_expires_at_idx').on('topic_memory').column('expires_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('topic_memory').execute()
  await db.schema.dropTable('topics').execute()
}
