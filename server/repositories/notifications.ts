// LISTEN/NOTIFY's sending side: SQL only. A notification sent inside a transaction is delivered when
// it commits, and never if it rolls back; what a channel carries is for its owner to say.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'

export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload}::text)`.execute(db)
}
