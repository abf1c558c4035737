// A fingerprint of everything a request could change, for properties like "a rejected request
// changes nothing": one hash per table (and per job queue), so a failure names what changed.
import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Db } from '#db/database.ts'

/** Tables a rejected request may legitimately touch: rate-limit counters count every attempt. */
export const ALWAYS_CHANGING_TABLES = ['rate_limit_slices']
/** Bookkeeping columns that move on any authenticated request (a key's last use). */
const BOOKKEEPING_COLUMNS = ['last_used_at']

export type StateSnapshot = Record<string, string>

const tableLists = new WeakMap<Db, Promise<string[]>>()

function publicTables(db: Db): Promise<string[]> {
  let tables = tableLists.get(db)
  if (!tables) {
    tables = sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`
      .execute(db)
      .then(({ rows }) => rows.map((row) => row.table_name))
    tableLists.set(db, tables)
  }
  return tables
}

/** One query, so a property can afford a snapshot before and after every request it makes. */
export async function snapshotState(db: Db, options: { ignoreTables?: string[] } = {}): Promise<StateSnapshot> {
  const ignored = new Set([...ALWAYS_CHANGING_TABLES, ...(options.ignoreTables ?? [])])
  const tables = (await publicTables(db)).filter((table) => !ignored.has(table))
  const row = sql`(to_jsonb(t) - ${sql.val(BOOKKEEPING_COLUMNS)}::text[])::text`
  const perTable = tables.map(
    (table) => sql`select ${table}::text as name, count(*)::int as rows,
      md5(coalesce(string_agg(${row}, ',' order by ${row}), '')) as digest
      from ${sql.table(table)} t`,
  )
  // Jobs a request could have sent (a run, a mention); pg-boss's own cron and maintenance rows aside.
  const jobs = sql`select 'pgboss.job:' || name, count(*)::int, md5(string_agg(data::text, ',' order by data::text))
    from pgboss.job where name not like '\_\_pgboss%' and name not like '%.purge' and name not in ('runs.sweep', 'deliveries.sweep')
    group by name`
  const { rows } = await sql<{ name: string; rows: number; digest: string }>`${sql.join(
    [...perTable, jobs],
    sql` union all `,
  )}`.execute(db)
  return Object.fromEntries(rows.map((entry) => [entry.name, `${entry.rows} rows ${entry.digest}`]))
}

/** Fails with the tables whose content differs. */
export function expectSameState(after: StateSnapshot, before: StateSnapshot, what: string): void {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (table) => before[table] !== after[table],
  )
  expect(changed, `${what} changed state`).toEqual([])
}
