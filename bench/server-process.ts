// Sextant as the benchmark measures it: `node server/main.ts` in its own process (so its memory is
// its own), with its logs in a file, its resident memory sampled, and everything it started stopped
// at the end: SIGTERM lets it stop its workers and its embedded Postgres; a Postgres orphaned by a
// server that had to be killed is stopped from its pid file.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { anyFreePort } from '#db/embedded.ts'
import { projectRoot } from '#server/http/app-build.ts'

export type ServerProcess = {
  url: string
  pid: number
  dataDir: string
  logFile: string
  /** Starts a new peak-memory window; `peakRss()` reports the highest resident set size since. */
  resetPeak: () => void
  peakRss: () => number
  /** CPU time (user + system, ms) used so far by the server process, and by its embedded Postgres. */
  cpuMs: () => { server: number; postgres: number }
  logTail: (lines?: number) => string
  /** Stops the server (and its embedded Postgres). Safe to call twice. */
  stop: () => Promise<void>
}

const READY_TIMEOUT_MS = 180_000 // a first start may build the web app
const STOP_TIMEOUT_MS = 40_000
const RSS_SAMPLE_MS = 20

export function createDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-bench-'))
  fs.chmodSync(dir, 0o755) // as root, the postgres OS user must reach the cluster inside it
  return dir
}

/** Removes the data directory, and the cluster kept elsewhere when the postgres user could not reach it. */
export function removeDataDir(dir: string): void {
  const location = path.join(dir, 'postgres-location')
  if (fs.existsSync(location)) {
    const cluster = fs.readFileSync(location, 'utf8').trim()
    fs.rmSync(path.dirname(cluster), { recursive: true, force: true })
  }
  fs.rmSync(dir, { recursive: true, force: true })
}

/** Starts of a server whose app build failed, and the pause before the next (see startServer). */
const BUILD_ATTEMPTS = 3
const BUILD_RETRY_MS = 10_000

/**
 * Starts the server, and waits until it is ready. A server that finds the app build older than its
 * sources builds it as it starts; two builds of one checkout at once (another server starting, a
 * test run, someone's `npm run build`) can break each other ("The app build failed"). Such a start
 * is made again a few times on an emptied data directory (so it prints its API key again), not on
 * BENCH_DATABASE_URL, which it would have provisioned already.
 */
export async function startServer(options: { dataDir: string; env: Record<string, string> }): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options)
    } catch (error) {
      const buildFailed = error instanceof Error && error.message.includes('The app build failed')
      if (!buildFailed || attempt >= BUILD_ATTEMPTS || options.env.DATABASE_URL) throw error
      process.stderr.write('(the app build failed, perhaps beside another build of this checkout: starting again) ')
      removeDataDir(options.dataDir)
      fs.mkdirSync(options.dataDir)
      fs.chmodSync(options.dataDir, 0o755)
      await sleep(BUILD_RETRY_MS)
    }
  }
}

async function startServerOnce(options: { dataDir: string; env: Record<string, string> }): Promise<ServerProcess> {
  const port = await anyFreePort()
  const { child, pid, exited, logFile } = spawnSextant(options.dataDir, 'server', {
    HOST: '127.0.0.1',
    PORT: String(port),
    EMBEDDED_PG_PORT: '0',
    ...options.env,
  })
  const url = `http://127.0.0.1:${port}`

  const rss = watchRss(pid)
  const logTail = (lines = 40) => tail(logFile, lines)

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      rss.stop()
      await stopChild(child, exited)
      stopOrphanedPostgres(options.dataDir)
    })())

  try {
    await waitUntilReady(url, child, logTail)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url,
    pid,
    dataDir: options.dataDir,
    logFile,
    resetPeak: rss.reset,
    peakRss: rss.peak,
    cpuMs: () => ({ server: processCpuMs(pid), postgres: postgresCpuMs(options.dataDir) }),
    logTail,
    stop,
  }
}

/** A process's resident set size sampled every RSS_SAMPLE_MS: the highest since the last reset. */
export function watchRss(pid: number): { reset: () => void; peak: () => number; stop: () => void } {
  let peak = 0
  const sample = () => {
    peak = Math.max(peak, readRss(pid))
  }
  const sampler = setInterval(sample, RSS_SAMPLE_MS)
  sampler.unref()
  return {
    reset() {
      peak = 0
      sample()
    },
    peak() {
      sample()
      return peak
    },
    stop: () => clearInterval(sampler),
  }
}

// Linux counts CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture we run on.
const TICK_MS = 10

/** utime + stime (and, with `children`, the reaped children's) of a process, from /proc/<pid>/stat. */
export function processCpuMs(pid: number, children = false): number {
  try {
    // Fields after the command (which may hold spaces), from field 3 (state) on.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number)
    const [utime, stime, cutime, cstime] = [fields[11], fields[12], fields[13], fields[14]].map((value) => value ?? 0)
    return ((utime ?? 0) + (stime ?? 0) + (children ? (cutime ?? 0) + (cstime ?? 0) : 0)) * TICK_MS
  } catch {
    return 0
  }
}

/** The embedded Postgres: the postmaster, its live backends, and the backends it has reaped. */
export function postgresCpuMs(dataDir: string): number {
  const postmaster = postmasterPid(dataDir)
  if (!postmaster) return 0
  let total = processCpuMs(postmaster, true)
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent === postmaster) total += processCpuMs(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return total
}

/** The embedded cluster's directory: under the data directory, or where it says the cluster was kept. */
function clusterDir(dataDir: string): string {
  const location = path.join(dataDir, 'postgres-location')
  return fs.existsSync(location) ? fs.readFileSync(location, 'utf8').trim() : path.join(dataDir, 'postgres')
}

function postmasterPid(dataDir: string): number | undefined {
  const pidFile = path.join(clusterDir(dataDir), 'postmaster.pid')
  if (!fs.existsSync(pidFile)) return undefined
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
  return Number.isInteger(pid) && pid > 0 ? pid : undefined
}

let spawned = 0

/** `node server/main.ts` on the data directory with `env`, its output in a log file there. */
function spawnSextant(dataDir: string, role: 'server' | 'worker', env: Record<string, string>) {
  // Numbered too: workers started in the same millisecond must not share a log (the ready check reads it).
  const logFile = path.join(dataDir, `${role}-${Date.now()}-${++spawned}.log`)
  const logFd = fs.openSync(logFile, 'a')
  const child = spawn(process.execPath, [path.join(projectRoot, 'server/main.ts')], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATA_DIR: dataDir,
      // What the benchmark measures must not depend on an Ollama the machine happens to run.
      OLLAMA_BASE_URL: 'none',
      ...env,
    },
    stdio: ['ignore', logFd, logFd],
  })
  fs.closeSync(logFd)
  const pid = child.pid
  if (pid === undefined) throw new Error(`could not start the ${role} process`)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { child, pid, exited, logFile }
}

export type WorkerProcess = {
  pid: number
  logFile: string
  /** CPU time (user + system, ms) the worker has used so far. */
  cpuMs: () => number
  /** Starts a new peak-memory window; `peakRss()` reports the highest resident set size since. */
  resetPeak: () => void
  peakRss: () => number
  stop: () => Promise<void>
}

/**
 * `npm run worker` beside a server started with RUN_ROLE=web: a worker process on the server's
 * database: the `DATABASE_URL` of `env` when there is one (BENCH_DATABASE_URL), else the server's
 * embedded Postgres (through its Unix socket, as the server connects), ready when it says so.
 */
export async function startWorker(options: { dataDir: string; env: Record<string, string> }): Promise<WorkerProcess> {
  const { child, pid, exited, logFile } = spawnSextant(options.dataDir, 'worker', {
    ...options.env,
    DATABASE_URL: options.env.DATABASE_URL ?? embeddedDatabaseUrl(options.dataDir),
    RUN_ROLE: 'worker',
  })
  const rss = watchRss(pid)
  const stop = async () => {
    rss.stop()
    await stopChild(child, exited)
  }
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (!fs.readFileSync(logFile, 'utf8').includes('Sextant worker is running')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`the worker did not start. Its log:\n${tail(logFile, 40)}`)
    }
    await sleep(100)
  }
  return { pid, logFile, cpuMs: () => processCpuMs(pid), resetPeak: rss.reset, peakRss: rss.peak, stop }
}

/** The app database of the embedded cluster a server started under `dataDir`, from its pid file. */
function embeddedDatabaseUrl(dataDir: string): string {
  const cluster = clusterDir(dataDir)
  // postmaster.pid: pid, data directory, start time, port, socket directory, ...
  const [, , , port, socketDir] = fs.readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')
  const password = fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim()
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/sextant`
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url
}

/** The API key the first start printed for the local account (shown once, in the banner). */
export function printedApiKey(server: ServerProcess): string {
  const key = /API key:\s+(sx_\S+)/.exec(fs.readFileSync(server.logFile, 'utf8'))?.[1]
  if (!key) throw new Error(`the server printed no API key. Its log:\n${server.logTail()}`)
  return key
}

async function waitUntilReady(url: string, child: ChildProcess, logTail: () => string) {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited while starting (${child.exitCode ?? child.signalCode}). Its log:\n${logTail()}`,
      )
    }
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) return
    await sleep(200)
  }
  throw new Error(`the server was not ready within ${READY_TIMEOUT_MS / 1000} s. Its log:\n${logTail()}`)
}

/** SIGTERM, then SIGKILL if it has not exited within the stop timeout. */
export async function stopChild(child: ChildProcess, exited: Promise<void>) {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timeout = sleep(STOP_TIMEOUT_MS, 'timeout' as const)
  if ((await Promise.race([exited.then(() => 'exited' as const), timeout])) === 'timeout') {
    child.kill('SIGKILL')
    await exited
  }
}

/** After a kill, the server's Postgres may still be running; the pid file of its cluster says which. */
function stopOrphanedPostgres(dataDir: string) {
  const pid = postmasterPid(dataDir)
  if (!pid) return
  // A stale pid file could name an unrelated process by now: only a postgres is stopped.
  const command = fs.existsSync(`/proc/${pid}/cmdline`) ? fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') : ''
  if (!command.includes('postgres')) return
  try {
    process.kill(pid, 'SIGQUIT')
  } catch {
    // already gone
  }
}

/** Resident set size in bytes (VmRSS), or 0 once the process is gone. */
function readRss(pid: number): number {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib ? Number(kib) * 1024 : 0
  } catch {
    return 0
  }
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}
