import { type Kysely, sql } from 'kysely'

// Feeds (issue 20, step 5). A feed is a private Atom feed of one topic's or one series' deltas, read
// with a random token in its URL: the token is stored as its SHA-256 (256 random bits need no slow
// hash), bound to the account and to exactly one topic or series, and revoked by setting revoked_at.
// The feed's title is sealed like the topic it names. `run_changes` is the clear index a feed reads
// to choose its entries without opening a report: per complete run, how many claims were new, updated
// or contradicted, and whether the run was told (delivered) under its series' notify setting.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feeds')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('topic_id', 'uuid', (column) => column.references('topics.id').onDelete('cascade'))
    .addColumn('series_id', 'uuid', (column) => column.references('series.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('title_key_id', 'text', (column) => column.notNull())
    .addColumn('title', 'bytea', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addCheckConstraint('feeds_one_subject', sql`num_nonnulls(topic_id, series_id) = 1`)
    .execute()
  await db.schema.createIndex('feeds_account_idx').on('feeds').columns(['account_id', 'created_at']).execute()

  await db.schema
    .createTable('run_changes')
    .addColumn('run_id', 'uuid', (column) => column.primaryKey().references('runs.id').onDelete('cascade'))
    .addColumn('changes', 'integer', (column) => column.notNull().check(sql`changes >= 0`))
    .addColumn('told', 'boolean', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('run_changes').execute()
  await db.schema.dropTable('feeds').execute()
}
