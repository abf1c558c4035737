// What the instance-wide settings say about this installation. The SQL is server/repositories/settings.ts's.
import type { Db } from '#db/database.ts'
import { ensureSetting } from '#server/repositories/settings.ts'

/** When this database was first set up by Sextant (the first boot that migrated it). */
export async function installedAt(db: Db): Promise<Date> {
  const value = await ensureSetting(db, 'installed_at', new Date().toISOString())
  return new Date(value)
}
