import { type Kysely, sql } from 'kysely'

// What people asked is sealed like what was learned: a run's and a series' brief, a run's error, the
// data of run events (search queries, warnings), a delivery's notice and a received mention's text
// become AES-256-GCM columns beside their key id; topics are found by a keyed HMAC (`topic_hash`)
// instead of their clear key. A migration cannot see the key ring, so the clear columns are renamed
// `legacy_*` and emptied by a step at boot (server/seal-legacy.ts) that seals what they hold.
// Renaming (not re-using) them makes a process still running the old code fail rather than write
// clear text that nothing would seal.

/** Each sealed column and its key id are set together or not at all. */
async function sealedColumn(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  await db.schema.alterTable(table).addColumn(`${column}_key_id`, 'text').addColumn(column, 'bytea').execute()
  await db.schema
    .alterTable(table)
    .addCheckConstraint(
      `${table}_${column}_sealed`,
      sql`(${sql.ref(column)} is null) = (${sql.ref(`${column}_key_id`)} is null)`,
    )
    .execute()
}

async function toLegacy(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  await db.schema.alterTable(table).renameColumn(column, `legacy_${column}`).execute()
  await db.schema
    .alterTable(table)
    .alterColumn(`legacy_${column}`, (alter) => alter.dropNotNull())
    .execute()
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('topics').dropConstraint('topics_account_topic_key').execute()
  await toLegacy(db, 'topics', 'topic_key')
  await db.schema.alterTable('topics').addColumn('topic_hash', 'bytea').execute()
  await sql`create unique index topics_account_topic_hash_key on topics (account_id, topic_hash)`.execute(db)

  await db.schema.dropIndex('runs_account_topic_idx').execute()
  for (const column of ['topic_key', 'brief', 'error']) await toLegacy(db, 'runs', column)
  await db.schema.alterTable('runs').addColumn('topic_hash', 'bytea').execute()
  await sealedColumn(db, 'runs', 'brief')
  await sealedColumn(db, 'runs', 'error')
  await db.schema.createIndex('runs_account_topic_idx').on('runs').columns(['account_id', 'topic_hash']).execute()

  await toLegacy(db, 'series', 'brief')
  await sealedColumn(db, 'series', 'brief')

  await toLegacy(db, 'run_events', 'data')
  await db.schema
    .alterTable('run_events')
    .alterColumn('legacy_data', (alter) => alter.dropDefault())
    .execute()
  await sealedColumn(db, 'run_events', 'data')

  await toLegacy(db, 'deliveries', 'notice')
  await sealedColumn(db, 'deliveries', 'notice')

  // The text of a mention waits here, sealed, for its job (which carries only ids); acting on it clears it.
  await sealedColumn(db, 'webhook_receipts', 'payload')
}

const SEALED = [
  ['runs', 'brief'],
  ['runs', 'error'],
  ['series', 'brief'],
  ['run_events', 'data'],
  ['deliveries', 'notice'],
  ['webhook_receipts', 'payload'],
] as const

export async function down(db: Kysely<unknown>): Promise<void> {
  // SQL cannot unseal: going back is possible only while nothing has been sealed yet.
  for (const [table, column] of SEALED) {
    const { rows } = await sql<{ sealed: boolean }>`
      select exists (select 1 from ${sql.table(table)} where ${sql.ref(column)} is not null) as sealed`.execute(db)
    if (rows[0]?.sealed) {
      throw new Error(`${table}.${column} holds sealed rows; restore a backup from before the upgrade instead`)
    }
  }
  for (const [table, column] of SEALED) {
    await db.schema.alterTable(table).dropConstraint(`${table}_${column}_sealed`).execute()
    await db.schema.alterTable(table).dropColumn(column).dropColumn(`${column}_key_id`).execute()
  }
  const legacy = [
    ['topics', 'topic_key'],
    ['runs', 'topic_key'],
    ['runs', 'brief'],
    ['runs', 'error'],
    ['series', 'brief'],
    ['run_events', 'data'],
    ['deliveries', 'notice'],
  ] as const
  for (const [table, column] of legacy) {
    await db.schema.alterTable(table).renameColumn(`legacy_${column}`, column).execute()
  }
  for (const [table, column] of [
    ['topics', 'topic_key'],
    ['runs', 'topic_key'],
    ['runs', 'brief'],
    ['series', 'brief'],
    ['run_events', 'data'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .alterColumn(column, (alter) => alter.setNotNull())
      .execute()
  }
  await db.schema
    .alterTable('run_events')
    .alterColumn('data', (alter) => alter.setDefault(sql`'{}'::jsonb`))
    .execute()
  await db.schema.dropIndex('runs_account_topic_idx').execute()
  await db.schema.alterTable('runs').dropColumn('topic_hash').execute()
  await db.schema.createIndex('runs_account_topic_idx').on('runs').columns(['account_id', 'topic_key']).execute()
  await db.schema.dropIndex('topics_account_topic_hash_key').execute()
  await db.schema.alterTable('topics').dropColumn('topic_hash').execute()
  await db.schema
    .alterTable('topics')
    .addUniqueConstraint('topics_account_topic_key', ['account_id', 'topic_key'])
    .execute()
}
