import { type Kysely, sql } from 'kysely'

// Trial visitors get an account of their own (kind 'trial'), found by a cookie token's hash, so
// their runs and memory are theirs alone and not shared with other visitors.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts drop constraint accounts_kind_check`.execute(db)
  await sql`alter table accounts add constraint accounts_kind_check check (kind in ('standard', 'local', 'demo', 'trial'))`.execute(
    db,
  )
  await db.schema.alterTable('accounts').addColumn('trial_token_hash', 'text').execute()
  await sql`create unique index accounts_trial_token_hash_key on accounts (trial_token_hash) where trial_token_hash is not null`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('trial_token_hash').execute()
  await sql`alter table accounts drop constraint accounts_kind_check`.execute(db)
  await sql`alter table accounts add constraint accounts_kind_check check (kind in ('standard', 'local', 'demo'))`.execute(
    db,
  )
}
