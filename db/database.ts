import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Database } from '#db/schema.ts'
import type { Logger } from '#server/logger.ts'

export type Db = Kysely<Database>

// Return BIGINT/COUNT as numbers (they never exceed 2^53 here) and NUMERIC as numbers too.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value))

export function createPool(connectionString: string, max: number, log: Logger): pg.Pool {
  // A bounded wait for a connection: with the database down, requests fail instead of hanging.
  const pool = new pg.Pool({ connectionString, max, application_name: 'sextant', connectionTimeoutMillis: 5000 })
  // An idle client losing its connection (a Postgres restart) must not crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'idle database connection failed'))
  // Nor a checked-out one: pg-pool listens only on idle clients, so a connection the server ends
  // while it sits in a transaction between statements would emit 'error' with no one listening,
  // and Node ends the process. The statement that comes next fails, the transaction with it, and
  // the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn({ err: error }, 'database connection lost while in use'))
  })
  return pool
}

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db)
}
