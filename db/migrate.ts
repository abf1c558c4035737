import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileMigrationProvider, type MigrationResultSet, Migrator } from 'kysely/migration'
import type { Db } from '#db/database.ts'

const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

export function createMigrator(db: Db): Migrator {
  return new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) })
}

export class MigrationError extends Error {
  constructor(failed: string | undefined, cause: unknown) {
    super(`Migration ${failed ?? '(unknown)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    })
    this.name = 'MigrationError'
  }
}

/** Applies every pending migration; returns the names applied now. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results }: MigrationResultSet = await createMigrator(db).migrateToLatest()
  if (error) throw new MigrationError(results?.find((result) => result.status === 'Error')?.migrationName, error)
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName)
}

/** Names of migrations known to the code but not yet applied to the database. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrations = await createMigrator(db).getMigrations()
  return migrations.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name)
}
