// Each status and kind list is written once, in server/vocabulary; the tables' CHECK constraints are
// written in migrations, which are history and keep their own SQL. This test holds the two together:
// a value added to a list without a migration (or the other way round) fails here, not in production
// when the first row with it is refused.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ACCOUNT_KINDS, API_KEY_KINDS } from '#server/vocabulary/accounts.ts'
import {
  CHAT_CHANNELS,
  DELIVERY_CHANNELS,
  DELIVERY_KINDS,
  DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
} from '#server/vocabulary/notify.ts'
import { RUN_STATUSES } from '#server/vocabulary/runs.ts'
import { SERIES_NOTIFY, SERIES_STATUSES } from '#server/vocabulary/series.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

/** The quoted values of the CHECK constraint on one column ("status in ('a', 'b')"). */
async function allowed(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
    where c.contype = 'c' and c.conrelid = ${table}::regclass and a.attname = ${column}
      and cardinality(c.conkey) = 1`.execute(database.db)
  expect(rows, `one CHECK constraint on ${table}.${column}`).toHaveLength(1)
  return [...(rows[0]?.definition ?? '').matchAll(/'([^']*)'/g)].map((match) => match[1] as string).sort()
}

test.each([
  ['accounts', 'kind', ACCOUNT_KINDS],
  ['api_keys', 'kind', API_KEY_KINDS],
  ['runs', 'status', RUN_STATUSES],
  ['series', 'status', SERIES_STATUSES],
  ['series', 'notify', SERIES_NOTIFY],
  ['deliveries', 'channel', DELIVERY_CHANNELS],
  ['deliveries', 'kind', DELIVERY_KINDS],
  ['deliveries', 'status', DELIVERY_STATUSES],
  ['webhook_receipts', 'provider', CHAT_CHANNELS],
  ['webhook_endpoints', 'status', WEBHOOK_ENDPOINT_STATUSES],
] as const)('the vocabulary list of %s.%s is what the table allows', async (table, column, list) => {
  expect(await allowed(table, column)).toEqual([...list].sort())
})
