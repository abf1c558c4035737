// `npm run cli -- <group> <command> [options]`. Human output on stdout; logs and errors on stderr.
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { createDb, createPool, type Db } from '#db/database.ts'
import { runningEmbeddedPostgresUrl, startEmbeddedPostgres } from '#db/embedded.ts'
import { migrateToLatest, pendingMigrations } from '#db/migrate.ts'
import { createApiKeyVerifier } from '#server/accounts/api-keys.ts'
import { createAccountService, createKeyService } from '#server/accounts/service.ts'
import { createChatLinkService } from '#server/chat/service.ts'
import { accountCommands } from '#server/cli/accounts.ts'
import { CliError, type CliServices, type Command, type CommandShape } from '#server/cli/command.ts'
import { corpusCommands } from '#server/cli/corpus.ts'
import { integrationCommands } from '#server/cli/integrations.ts'
import { type Config, ConfigError, loadConfig } from '#server/config.ts'
import { generateKeySpec, loadKeyRing } from '#server/crypto/key-ring.ts'
import { createLogger, type Logger } from '#server/logger.ts'
import { createSlackWorkspaces } from '#server/notify/service.ts'
import { createCorpusService } from '#server/services/operations.ts'

/** `db migrate` and `db status` keep the database itself, so they alone are given it, here. */
type MaintenanceCommand = CommandShape & { database: 'maintenance'; run: (context: { db: Db }) => Promise<void> }

const commands: Record<string, Command | MaintenanceCommand> = {
  'db migrate': {
    summary: 'apply pending database migrations',
    database: 'maintenance',
    async run({ db }) {
      const applied = await migrateToLatest(db)
      console.log(applied.length ? `Applied ${applied.length}: ${applied.join(', ')}` : 'Already up to date.')
    },
  },
  'db status': {
    summary: 'list migrations not yet applied',
    database: 'maintenance',
    async run({ db }) {
      const pending = await pendingMigrations(db)
      console.log(pending.length ? `Pending: ${pending.join(', ')}` : 'Up to date: no pending migrations.')
    },
  },
  ...accountCommands,
  ...corpusCommands,
  ...integrationCommands,
  'memory keygen': {
    summary: 'print a new memory encryption key for MEMORY_ENCRYPTION_KEYS',
    database: false,
    async run() {
      const spec = generateKeySpec()
      console.log(
        `${spec}\n\nPut it first in MEMORY_ENCRYPTION_KEYS to seal new memory with it; keep the old keys after it`,
      )
      console.log('so existing memory stays readable (for example MEMORY_ENCRYPTION_KEYS=new,old).')
    },
  },
}

/**
 * The CLI's composition root, as server/start.ts is the server's: the services its commands call,
 * over the database just opened. No job system runs here, so only the services that need none.
 */
function createCliServices(db: Db, config: Config, log: Logger): CliServices {
  return {
    accounts: createAccountService({ db }),
    keys: createKeyService({ db, verifier: createApiKeyVerifier(db), maxActive: config.API_KEYS_PER_ACCOUNT }),
    corpus: createCorpusService({ db }),
    chatLinks: createChatLinkService({ db, workspaces: createSlackWorkspaces(() => loadKeyRing(config, log)) }),
  }
}

function synopsis(name: string, command: CommandShape): string {
  const options = Object.entries(command.options ?? {}).map(([option, need]) =>
    need === 'required' ? `--${option} <${option}>` : `[--${option} <${option}>]`,
  )
  return [name, ...options, ...(command.positionals ?? []).map((positional) => `<${positional}>`)].join(' ')
}

function usage(): string {
  const synopses = Object.entries(commands).map(([name, command]) => [synopsis(name, command), command.summary])
  const width = Math.max(...synopses.map(([line = '']) => line.length))
  const lines = synopses.map(([line = '', summary]) => `  ${line.padEnd(width)}  ${summary}`)
  return `Usage: npm run cli -- <command> [options]\n\nCommands:\n${lines.join('\n')}\n`
}

/** Checks the command line against what the command declares, before any database is opened. */
function parseCommandLine(name: string, command: CommandShape, args: string[]) {
  const declared = command.options ?? {}
  let parsed: { values: Record<string, string | undefined>; positionals: string[] }
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(Object.keys(declared).map((option) => [option, { type: 'string' as const }])),
      allowPositionals: Boolean(command.positionals),
      strict: true,
    })
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_')) throw new CliError((error as Error).message, 2)
    throw error
  }
  const missing = Object.keys(declared).filter((option) => declared[option] === 'required' && !parsed.values[option])
  if (missing.length) throw new CliError(`${name}: missing ${missing.map((option) => `--${option}`).join(', ')}.`, 2)
  if (parsed.positionals.length !== (command.positionals?.length ?? 0)) {
    throw new CliError(`${name}: expected ${command.positionals?.map((positional) => `<${positional}>`).join(' ')}.`, 2)
  }
  return parsed
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

const HELP_FLAGS = ['--help', '-h']

/** `--help` anywhere, or `help` first: usage on stdout, for the command named if there is one. */
function help(argv: string[]): string | undefined {
  if (argv[0] !== 'help' && !argv.some((arg) => HELP_FLAGS.includes(arg))) return undefined
  const words = (argv[0] === 'help' ? argv.slice(1) : argv).filter((arg) => !HELP_FLAGS.includes(arg))
  const name = words.slice(0, 2).join(' ')
  const command = commands[name]
  return command ? `Usage: npm run cli -- ${synopsis(name, command)}\n\n${command.summary}\n` : usage()
}

async function main(argv: string[]): Promise<number> {
  const helpText = help(argv)
  if (helpText) {
    process.stdout.write(helpText)
    return 0
  }
  const name = argv.slice(0, 2).join(' ')
  const command = commands[name]
  if (!command) {
    process.stderr.write(name ? `Unknown command "${name}".\n\n${usage()}` : usage())
    return name ? 2 : 0
  }
  try {
    const commandLine = parseCommandLine(name, command, argv.slice(2))
    const config = loadConfig()
    const log = createLogger({
      level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL,
      destination: pino.destination(2),
    })
    if (command.database === false) await command.run(commandLine)
    else if (command.database === 'maintenance') await withDatabase(config, log, (db) => command.run({ db }))
    else {
      await withDatabase(config, log, (db) =>
        command.run({ services: createCliServices(db, config, log), ...commandLine }),
      )
    }
    return 0
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`${error.message}\n${error.code === 2 ? `\n${usage()}` : ''}`)
      return error.code
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      return 1
    }
    throw error
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
