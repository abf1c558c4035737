// A connection that the database ends while it is checked out of the pool (inside a transaction,
// between two statements) must fail that transaction, not the process. pg-pool listens for errors
// only on idle clients, so without a listener of our own the client's 'error' event has nobody to
// hear it and Node ends the process: a Postgres restart during any open transaction took the server
// down (seen as a stop that exited 1 while the embedded cluster restarted).
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDb, createPool, type Db } from '#db/database.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
let db: Db
beforeAll(async () => {
  database = await createTestDatabase()
  db = createDb(createPool(database.url, 2, testLogger()))
})
afterAll(async () => {
  await db.destroy()
  await database.drop()
})

test('a transaction whose connection is terminated between statements fails, and the pool goes on', async () => {
  const uncaught: unknown[] = []
  const record = (error: unknown) => uncaught.push(error)
  process.on('uncaughtException', record)
  try {
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(database.db)
        // The termination reaches the client while it sits idle, checked out, between statements.
        await new Promise((resolve) => setTimeout(resolve, 300))
        await sql`select 1`.execute(trx)
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    expect(failed).toBeInstanceOf(Error)
    expect(uncaught).toEqual([])
    // The broken client was not handed out again.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }])
  } finally {
    process.off('uncaughtException', record)
  }
})
