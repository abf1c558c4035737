// Named statements (db/database.ts, issue 21): parameterised statements are prepared once per
// connection; whole-row reads are not, so a migration that adds a column does not break them.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDb, createPool, type Db } from '#db/database.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
let prepared: Db
beforeAll(async () => {
  database = await createTestDatabase()
  // One connection, so what it has prepared can be read on it.
  prepared = createDb(createPool(database.url, 1, testLogger(), { prepare: true }))
})
afterAll(async () => {
  await prepared.destroy()
  await database.drop()
})

async function preparedOnConnection(): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(prepared)
  return rows.map((row) => row.statement)
}

test('a parameterised statement is prepared once and reused; a whole-row read and an unparameterised one are not', async () => {
  const { account } = await createTestAccount(database.db)
  for (let i = 0; i < 3; i++) {
    const row = await prepared
      .selectFrom('accounts')
      .select(['id', 'email'])
      .where('id', '=', account.id)
      .executeTakeFirst()
    expect(row?.id).toBe(account.id)
  }
  const whole = await prepared.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirst()
  expect(whole?.id).toBe(account.id)
  const statements = await preparedOnConnection()
  expect(statements.filter((text) => text.includes('select "id", "email" from "accounts"'))).toHaveLength(1)
  expect(statements.some((text) => text.includes('select * from "accounts"'))).toBe(false)
  expect(statements.some((text) => text.includes('pg_prepared_statements'))).toBe(false)
})

test('after a migration adds a column, both kinds of read still work on the same connection', async () => {
  const { account } = await createTestAccount(database.db)
  const named = () =>
    prepared.selectFrom('accounts').select(['id', 'email']).where('id', '=', account.id).executeTakeFirst()
  const whole = () => prepared.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirst()
  await named()
  await whole()
  await sql`alter table accounts add column prepared_test_column text`.execute(database.db)
  expect((await named())?.id).toBe(account.id)
  expect(await whole()).toHaveProperty('prepared_test_column', null)
})

test('an insert whose ON CONFLICT names a partial unique index works past the point Postgres plans generically', async () => {
  await sql`create table partial_conflicts (id serial primary key, owner int not null, kind text not null)`.execute(
    database.db,
  )
  await sql`create unique index partial_conflicts_once on partial_conflicts (owner, kind) where kind <> 'event'`.execute(
    database.db,
  )
  // Postgres tries custom plans five times before it settles on a generic one.
  for (let owner = 0; owner < 8; owner++) {
    await sql`insert into partial_conflicts (owner, kind) values (${owner}, ${'result'})
      on conflict (owner, kind) where kind <> ${'event'} do nothing`.execute(prepared)
  }
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from partial_conflicts`.execute(prepared)
  expect(rows[0]?.n).toBe(8)
})

test("a named statement answers through pg's promise and callback forms, its errors too, on the same connection", async () => {
  const pool = createPool(database.url, 1, testLogger(), { prepare: true })
  try {
    // pool.query answers through the client's callback form; Kysely through its promise form.
    const viaCallback = await pool.query('select $1::int + 1 as n', [41])
    expect(viaCallback.rows).toEqual([{ n: 42 }])
    const client = await pool.connect()
    try {
      const viaPromise = await client.query('select $1::int + 1 as n', [1])
      expect(viaPromise.rows).toEqual([{ n: 2 }])
      await expect(client.query('select $1::int / 0 as n', [1])).rejects.toThrow(/division by zero/)
      const failed = await new Promise<unknown>((resolve) =>
        client.query('select $1::int / 0 as n', [2], (error: unknown) => resolve(error)),
      )
      expect(String(failed)).toMatch(/division by zero/)
      const { rows } = await client.query<{ statement: string }>(
        'select statement from pg_prepared_statements where statement like $1',
        ['select $1::int%'],
      )
      // Each text was prepared once, as a named statement, whichever form asked for it.
      expect(rows.map((row) => row.statement).sort()).toEqual(['select $1::int + 1 as n', 'select $1::int / 0 as n'])
    } finally {
      client.release()
    }
  } finally {
    await pool.end()
  }
})
