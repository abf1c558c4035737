import { type Kysely, sql } from 'kysely'

// The runs an account has going (issue 42, item 3): counted at each start to queue the account's
// next run behind other accounts' (decision 039). Only running rows are indexed: an account's
// finished runs, however many, cost the count nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('runs_account_running_idx')
    .on('runs')
    .column('account_id')
    .where(sql.ref('status'), '=', 'running')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('runs_account_running_idx').execute()
}
