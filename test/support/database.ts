// A fresh database per test file, cloned from the migrated template (see global-setup.ts).
import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import { createDb, createPool, type Db } from '#db/database.ts'
import { testLogger } from '#test/support/logger.ts'

export type DatabaseHandle = { url: string; drop: () => Promise<void> }
export type TestDatabase = DatabaseHandle & { db: Db }

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Creates a database from a template: `template0` is empty, `sextant_template` is migrated. */
export async function createDatabase(template: 'template0' | 'sextant_template'): Promise<DatabaseHandle> {
  const name = `test_${randomBytes(6).toString('hex')}`
  await admin((client) => client.query(`create database ${name} template ${template}`))
  const url = new URL(inject('postgresUrl'))
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => admin(async (client) => void (await client.query(`drop database if exists ${name} with (force)`))),
  }
}

async function withDb(handle: DatabaseHandle): Promise<TestDatabase> {
  const db = createDb(createPool(handle.url, 5, testLogger()))
  return {
    ...handle,
    db,
    async drop() {
      await db.destroy()
      await handle.drop()
    },
  }
}

/** A database with every migration applied. */
export async function createTestDatabase(): Promise<TestDatabase> {
  return withDb(await createDatabase('sextant_template'))
}

/** An empty database (no migrations applied), for testing the migrations themselves. */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  return withDb(await createDatabase('template0'))
}

/** Every row of every table as text, for tests that prove something is not stored in the clear. */
export async function dumpAllTables(db: Db): Promise<string> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public'`.execute(db)
  let everything = ''
  for (const { table_name } of rows) {
    const dump = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db)
    everything += `${dump.rows.map((row) => row.row).join('\n')}\n`
  }
  return everything
}
