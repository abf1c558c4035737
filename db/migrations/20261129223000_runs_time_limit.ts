import type { Kysely } from 'kysely'

// A run's time limit counts from when a worker takes it, not from when it was queued (issue 42):
// `deadline_at` is first the queue's deadline (queued at + RUN_QUEUE_TIMEOUT + the limit), and is
// set to now + `time_limit_seconds` when a worker first takes the run. Null for runs queued before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('time_limit_seconds', 'integer').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('time_limit_seconds').execute()
}
