import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMigrator, migrateToLatest, pendingMigrations } from '#db/migrate.ts'
import { createEmptyDatabase, type TestDatabase } from '#test/support/database.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createEmptyDatabase()
})
afterAll(() => database.drop())

async function tables(): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(
    database.db,
  )
  return rows.map((row) => row.table_name)
}

test('migrations build the schema on an empty database, once, and roll all the way back', async () => {
  expect(await tables()).toEqual([])
  const known = (await createMigrator(database.db).getMigrations()).map((migration) => migration.name)
  expect(known.length).toBeGreaterThan(0)
  expect(await pendingMigrations(database.db)).toEqual(known)

  expect(await migrateToLatest(database.db)).toEqual(known)
  expect(await pendingMigrations(database.db)).toEqual([])
  expect(await tables()).toContain('settings')

  // A second boot applies nothing.
  expect(await migrateToLatest(database.db)).toEqual([])

  // Every migration has a working down().
  const migrator = createMigrator(database.db)
  for (const _ of known) {
    const { error } = await migrator.migrateDown()
    expect(error).toBeUndefined()
  }
  expect((await tables()).filter((table) => !table.startsWith('kysely_'))).toEqual([])
})
