// Instance-wide settings stored as JSON in the `settings` table.
import type { Db } from '#db/database.ts'

export async function readSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst()
  return row?.value as T | undefined
}

/** Stores `value` under `key` unless the key already has one; returns the stored value. */
export async function ensureSetting<T>(db: Db, key: string, value: T): Promise<T> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute()
  return (await readSetting<T>(db, key)) as T
}

/** When this database was first set up by Sextant (the first boot that migrated it). */
export async function installedAt(db: Db): Promise<Date> {
  const value = await ensureSetting(db, 'installed_at', new Date().toISOString())
  return new Date(value)
}
