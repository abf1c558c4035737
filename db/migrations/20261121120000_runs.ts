import { type Kysely, sql } from 'kysely'

// Research runs, their event log (what SSE streams replay), and the local search corpus.
// A run's checkpoint (search results and drafts) and its report are sealed like memory.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('account_id', 'uuid', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('topic_key', 'text', (column) => column.notNull())
    .addColumn('brief', 'jsonb', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) =>
      column.notNull().defaultTo('running').check(sql`status in ('running', 'complete', 'failed', 'cancelled')`),
    )
    .addColumn('current_step', 'text')
    .addColumn('has_memory', 'boolean', (column) => column.notNull())
    .addColumn('prior_run_count', 'integer', (column) => column.notNull())
    .addColumn('checkpoint_key_id', 'text')
    .addColumn('checkpoint', 'bytea')
    .addColumn('report_key_id', 'text')
    .addColumn('report', 'bytea')
    .addColumn('error', 'jsonb')
    .addColumn('usage', 'jsonb')
    .addColumn('deadline_at', 'timestamptz', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute()
  await db.schema
    .createIndex('runs_account_created_idx')
    .on('runs')
    .columns(['account_id', 'created_at desc', 'id'])
    .execute()
  await db.schema.createIndex('runs_account_topic_idx').on('runs').columns(['account_id', 'topic_key']).execute()

  await db.schema
    .createTable('run_events')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('run_id', 'uuid', (column) => column.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('step', 'text')
    .addColumn('data', 'jsonb', (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('run_events_run_id_idx').on('run_events').columns(['run_id', 'id']).execute()

  await db.schema
    .createTable('corpus_documents')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('url', 'text', (column) => column.notNull().unique())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('published_date', 'date')
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('indexed_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('search', sql`tsvector`, (column) =>
      column
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', text), 'B')`,
        )
        .stored(),
    )
    .execute()
  await sql`create index corpus_documents_search_idx on corpus_documents using gin (search)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('corpus_documents').execute()
  await db.schema.dropTable('run_events').execute()
  await db.schema.dropTable('runs').execute()
}
