// The settings table: instance-wide values stored as JSON under a key. SQL only, the database (or the
// caller's transaction) first; what a setting means is its owner's (server/settings.ts, the topic index).
import type { Db } from '#db/database.ts'

export async function readSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value as T | undefined
}

/** Stores `value` under `key` unless the key already has one; returns the stored value. */
export async function ensureSetting<T>(db: Db, key: string, value: T): Promise<T> {
  // Callers racing (two processes booting) all read back the value of the first insert.
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute()
  return (await readSetting<T>(db, key)) as T
}

/** Replaces the value stored under `key`. */
export async function updateSetting<T>(db: Db, key: string, value: T): Promise<void> {
  await db
    .updateTable('settings')
    .set({ value: JSON.stringify(value), updated_at: new Date() })
    .where('key', '=', key)
    .execute()
}
