// Process entry for `npm start`, `npm run dev` and `npm run worker`.
// First: V8's flags, before the rest of the server's code is compiled.
import '#server/v8-flags.ts'
import { isConnectionEndedByServer } from '#db/connection-ended.ts'
import { ConfigError, loadConfig } from '#server/config.ts'
import { createLogger } from '#server/logger.ts'
import { startSextant } from '#server/start.ts'
import { stopSignalHandler } from '#server/stop-signals.ts'

function readConfig() {
  try {
    return loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${error.message}\nSee docs/reference/configuration.md.\n`)
    process.exit(1)
  }
}

const config = readConfig()
const log = createLogger({ level: config.LOG_LEVEL })
const SHUTDOWN_LIMIT_MS = 30_000

const starting = startSextant({ config, log })
let shuttingDown = false

/** Exits now; the 'exit' hooks still run (the embedded Postgres gets its fast shutdown there). */
function exitNow(message: string): never {
  log.warn(message)
  process.exit(1)
}

async function shutdown(reason: string, exitCode: number) {
  if (shuttingDown) exitNow('asked to stop again while stopping: exiting now')
  shuttingDown = true
  log.info({ reason }, 'shutting down')
  setTimeout(() => exitNow('shutdown took too long; exiting'), SHUTDOWN_LIMIT_MS).unref()
  // A signal during boot waits for boot to finish (or fail) so nothing it started is orphaned.
  await starting.then(
    (sextant) => sextant.stop(),
    () => {},
  )
  log.info('stopped')
  process.exit(exitCode)
}

const onStopSignal = stopSignalHandler({
  stop: (signal) => void shutdown(signal, 0),
  echoed: (signal) => log.debug({ signal }, 'the same signal again at once (npm passing it on): still stopping'),
  exitNow: () => exitNow('second signal: exiting now'),
})
process.on('SIGINT', () => onStopSignal('SIGINT'))
process.on('SIGTERM', () => onStopSignal('SIGTERM'))
process.on('uncaughtException', (error) => {
  // Postgres ending a connection that a library's client held with no listener (pg-boss's, while it
  // stops during a database restart): the connection is gone and its pool has dropped it; the
  // server goes on (or on stopping). Anything else is a bug, and the process ends.
  if (isConnectionEndedByServer(error)) {
    log.warn({ err: error }, 'a database connection was ended by the server')
    return
  }
  log.fatal({ err: error }, 'uncaught exception')
  void shutdown('uncaughtException', 1)
})
process.on('unhandledRejection', (error) => {
  log.fatal({ err: error }, 'unhandled promise rejection')
  void shutdown('unhandledRejection', 1)
})

const sextant = await starting.catch((error: unknown) => {
  log.fatal({ err: error }, error instanceof Error ? error.message : 'failed to start')
  process.exit(1)
})

if (sextant.url) {
  log.info({ url: sextant.url, role: config.RUN_ROLE }, `Sextant is ready at ${sextant.url}`)
} else {
  log.info({ role: config.RUN_ROLE }, 'Sextant worker is running')
}
process.stdout.write(banner(sextant.url, sextant.created, sextant.providers))

/** Plain text for a person at the terminal. Secrets appear here once, at the start that made them. */
function banner(url: string | undefined, created: typeof sextant.created, providers: typeof sextant.providers): string {
  const lines: string[] = []
  // Always, not only on a terminal: the address is what someone reading `docker logs` looks for too.
  if (url) lines.push(`Sextant is running at ${url}`, `Dashboard: ${url}/dashboard`)
  if (url && process.stdout.isTTY) lines.push('Stop with Ctrl-C.')
  // What it researches with, every start: whether it searches the web or the invented sample.
  lines.push(
    `Search: ${providers.search.inUse}.`,
    `        ${providers.search.change}`,
    `Model:  ${providers.model.inUse}.`,
    `        ${providers.model.change}`,
  )
  if (created.local) {
    lines.push(
      '',
      'Created a local account (shown once; keep it):',
      `  Dashboard login:  ${created.local.email} / ${created.local.password}`,
      `  API key:          ${created.local.apiKey}`,
      `  Try it:           curl -H "Authorization: Bearer ${created.local.apiKey}" ${url ?? 'http://localhost:3000'}/api/me`,
    )
  }
  if (created.demoKey) {
    lines.push('', `Demo key (public; ${config.RATE_LIMIT_DEMO_PER_DAY} runs per IP per day): ${created.demoKey}`)
  }
  return lines.length > 0 ? `\n${lines.map((line) => (line ? `  ${line}` : '')).join('\n')}\n\n` : ''
}
