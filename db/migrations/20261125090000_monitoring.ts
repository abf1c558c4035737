import { type Kysely, sql } from 'kysely'

// Monitoring (issue 20). A series may repeat on its own cadence: every N seconds (`every_seconds`),
// or on a cron expression in a time zone; neither set means the server's RECURRING_INTERVAL (the
// spec's 7 days). `notify` says whether a run that changed nothing is delivered: series made
// before this keep 'always' (what they did), new ones default to 'changes'. Deliveries gain the
// channels webhook and email, and the kinds event (a webhook event) and digest (an email).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('series')
    .addColumn('every_seconds', 'integer', (column) => column.check(sql`every_seconds > 0`))
    .addColumn('cron', 'text')
    .addColumn('time_zone', 'text')
    .addColumn('notify', 'text', (column) =>
      column.notNull().defaultTo('always').check(sql`notify in ('always', 'changes')`),
    )
    .execute()
  await sql`alter table series alter column notify set default 'changes'`.execute(db)
  await sql`alter table series add constraint series_one_cadence check (every_seconds is null or cron is null)`.execute(
    db,
  )
  await sql`alter table deliveries drop constraint deliveries_channel_check`.execute(db)
  await sql`alter table deliveries add constraint deliveries_channel_check
    check (channel in ('slack', 'github', 'webhook', 'email'))`.execute(db)
  await sql`alter table deliveries drop constraint deliveries_kind_check`.execute(db)
  await sql`alter table deliveries add constraint deliveries_kind_check
    check (kind in ('started', 'result', 'notice', 'event', 'digest'))`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from deliveries where channel in ('webhook', 'email')`.execute(db)
  await sql`alter table deliveries drop constraint deliveries_kind_check`.execute(db)
  await sql`alter table deliveries add constraint deliveries_kind_check
    check (kind in ('started', 'result', 'notice'))`.execute(db)
  await sql`alter table deliveries drop constraint deliveries_channel_check`.execute(db)
  await sql`alter table deliveries add constraint deliveries_channel_check
    check (channel in ('slack', 'github'))`.execute(db)
  await db.schema.alterTable('series').dropConstraint('series_one_cadence').execute()
  await db.schema
    .alterTable('series')
    .dropColumn('every_seconds')
    .dropColumn('cron')
    .dropColumn('time_zone')
    .dropColumn('notify')
    .execute()
}
