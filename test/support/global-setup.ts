// Starts one embedded Postgres for the integration run and migrates a template database that
// every test file clones. Also makes sure the web app is built, as `npm start` would.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { createDb, createPool } from '#db/database.ts'
import { startEmbeddedPostgres } from '#db/embedded.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { ensureAppBuild } from '#server/http/app-build.ts'
import { testLogger } from '#test/support/logger.ts'

export const TEMPLATE_DATABASE = 'sextant_template'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
  }
}

export default async function setup(project: TestProject) {
  const log = testLogger()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-test-'))
  fs.chmodSync(dataDir, 0o755) // the postgres OS user must reach it when we run as root
  const [postgres] = await Promise.all([startEmbeddedPostgres({ dataDir, preferredPort: 0, log }), ensureAppBuild(log)])

  const admin = new pg.Client({ connectionString: postgres.adminUrl })
  await admin.connect()
  await admin.query(`create database ${TEMPLATE_DATABASE}`)
  await admin.end()
  const templateUrl = new URL(postgres.adminUrl)
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`
  const db = createDb(createPool(templateUrl.toString(), 2, log))
  await migrateToLatest(db)
  await db.destroy()

  project.provide('postgresUrl', postgres.adminUrl)
  return async () => {
    await postgres.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
