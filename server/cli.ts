// `npm run cli -- <group> <command> [options]`. Human output on stdout, logs on stderr.
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { createDb, createPool, type Db } from '#db/database.ts'
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '#db/embedded.ts'
import { migrateToLatest, pendingMigrations } from '#db/migrate.ts'
import { type Config, ConfigError, loadConfig } from '#server/config.ts'
import { createLogger, type Logger } from '#server/logger.ts'

type Command = {
  summary: string
  run: (context: { db: Db; config: Config; args: string[]; log: Logger }) => Promise<void>
}

const commands: Record<string, Command> = {
  'db migrate': {
    summary: 'apply pending database migrations',
    async run({ db }) {
      const applied = await migrateToLatest(db)
      console.log(applied.length ? `Applied ${applied.length}: ${applied.join(', ')}` : 'Already up to date.')
    },
  },
  'db status': {
    summary: 'list migrations not yet applied',
    async run({ db }) {
      const pending = await pendingMigrations(db)
      console.log(pending.length ? `Pending: ${pending.join(', ')}` : 'Up to date: no pending migrations.')
    },
  },
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(28)} ${command.summary}`)
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${lines.join('\n')}\n`
}

/**
 * Opens the app's database: DATABASE_URL, else the embedded Postgres of a running Sextant, else
 * the embedded cluster started just for this command (and stopped after it).
 */
async function withDatabase(config: Config, log: Logger, fn: (db: Db) => Promise<void>): Promise<void> {
  let url = config.DATABASE_URL ?? runningEmbeddedPostgresUrl(config.DATA_DIR)
  let stopEmbedded: (() => Promise<void>) | undefined
  if (!url) {
    const embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      preferredPort: config.EMBEDDED_PG_PORT,
      log,
    })
    url = embedded.url
    stopEmbedded = embedded.stop
  }
  const db = createDb(createPool(url, 2, log))
  try {
    await fn(db)
  } finally {
    await db.destroy()
    await stopEmbedded?.()
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false })
  const name = positionals.slice(0, 2).join(' ')
  const command = commands[name]
  if (!command) {
    process.stderr.write(name ? `Unknown command "${name}".\n\n${usage()}` : usage())
    return name ? 2 : 0
  }
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\n`)
    return 1
  }
  const log = createLogger({
    level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL,
    destination: pino.destination(2),
  })
  await withDatabase(config, log, (db) => command.run({ db, config, log, args: argv.slice(2) }))
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
