// The migration that stops recurring briefs the shared demo key scheduled before visitors had
// accounts of their own: an account's own series keeps running.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMigrator, migrateToLatest } from '#db/migrate.ts'
import { createEmptyDatabase, type TestDatabase } from '#test/support/database.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createEmptyDatabase()
})
afterAll(() => database.drop())

test('series of demo and trial accounts are stopped; members’ series are not', async () => {
  const { error } = await createMigrator(database.db).migrateTo('20261121150000_integrations')
  expect(error).toBeUndefined()
  const { rows } = await sql<{ id: string; kind: string }>`
    insert into accounts (email, kind) values ('demo@sextant.local', 'demo'), ('a@example.com', 'standard'),
      ('t@trial.sextant.local', 'trial')
    returning id, kind`.execute(database.db)
  for (const account of rows) {
    await sql`insert into series (account_id, brief, status, next_run_at)
      values (${account.id}, '{"topic":"weekly"}', 'active', now() + interval '7 days')`.execute(database.db)
  }
  await migrateToLatest(database.db)
  const { rows: after } = await sql<{ kind: string; status: string; next_run_at: Date | null }>`
    select accounts.kind, series.status, series.next_run_at from series join accounts on accounts.id = series.account_id
    order by accounts.kind`.execute(database.db)
  expect(after.map(({ kind, status, next_run_at }) => [kind, status, next_run_at === null])).toEqual([
    ['demo', 'cancelled', true],
    ['standard', 'active', false],
    ['trial', 'cancelled', true],
  ])
})
