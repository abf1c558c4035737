// The app's pool (db/database.ts): an idle connection stays open for DATABASE_POOL_IDLE_SECONDS, 0
// meaning for as long as the pool lives, since a new one costs a Postgres backend and SCRAM.
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createPool } from '#db/database.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
const pools: pg.Pool[] = []
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()))
  await database.drop()
})

function pool(options: { idleSeconds?: number }) {
  const made = createPool(database.url, 1, testLogger(), options)
  pools.push(made)
  return made
}

const backend = async (of: pg.Pool) =>
  (await of.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid as number

const alive = async (pid: number) =>
  (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(database.db))
    .rows[0]?.n === 1

test('an idle connection is closed after idleSeconds, and kept for as long as the pool lives with 0', async () => {
  const closing = pool({ idleSeconds: 1 })
  const keeping = pool({ idleSeconds: 0 })
  const [closed, kept] = [await backend(closing), await backend(keeping)]
  await sleep(1600)
  expect(closing.idleCount).toBe(0)
  expect(await alive(closed)).toBe(false)
  expect(keeping.idleCount).toBe(1)
  expect(await backend(keeping)).toBe(kept)
  // pg closes after 10 s by default: 0 must reach it as "never", not as "unset".
  expect(keeping.options.idleTimeoutMillis).toBe(0)
})

test("without idleSeconds the pool keeps pg's default, so a short-lived tool's pool lets it exit", () => {
  expect(pool({}).options.idleTimeoutMillis).toBe(10_000)
})
