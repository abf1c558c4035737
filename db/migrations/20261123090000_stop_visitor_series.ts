import { type Kysely, sql } from 'kysely'

// Recurring briefs are for accounts of their own. The shared demo key could schedule them, outside
// every limit, so a deployment may hold some that would run every week for good: they are stopped
// (their pending wake jobs find the series cancelled and start nothing). Runs and memory stay.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update series set status = 'cancelled', next_run_at = null, updated_at = now()
    where status <> 'cancelled'
      and account_id in (select id from accounts where kind in ('demo', 'trial'))`.execute(db)
}

// Which series were stopped here is not kept; resuming them would undo the point.
export async function down(_db: Kysely<unknown>): Promise<void> {}
