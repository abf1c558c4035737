// Keyset pages, newest first by (created_at, id), continued after a cursor row. The comparison is made
// in Postgres against the cursor row itself: a timestamp read into JavaScript keeps milliseconds and
// the column keeps microseconds, so comparing with the value read back skips every row created within
// the cursor's millisecond but after it (a burst of creations lands many in one).
import { type RawBuilder, sql } from 'kysely'

/** `table`'s rows that come after row `cursorId` of it in (created_at, id) descending order. */
export function after(table: 'feeds' | 'runs', cursorId: string): RawBuilder<boolean> {
  const created = sql.ref(`${table}.created_at`)
  const id = sql.ref(`${table}.id`)
  return sql<boolean>`(${created}, ${id}) < (select cursor.created_at, cursor.id from ${sql.table(table)} as cursor where cursor.id = ${cursorId})`
}
