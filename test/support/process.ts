// Runs `node server/main.ts` (or `npm start` itself) as a real child process, and reads its JSON logs.
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { projectRoot } from '#server/http/app-build.ts'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { offlineSearch } from '#test/support/offline-search.ts'
import { STUB_EXA_API_KEY } from '#test/support/stub-exa.ts'

/**
 * The time a test that starts real processes may take: each loads the server's code and may open a
 * database, which on a two-core machine with the rest of the suite and two CPU-bound processes beside
 * it took several seconds a start (issue 41, item 2). A budget, not a clock: `vi.setConfig` with it.
 */
export const PROCESS_TEST_BUDGET_MS = 120_000

/**
 * What a Sextant process needs to run on a test database against the stub providers: the database,
 * memory's key, and Exa and the model at their stubs.
 */
export function stubProvidersEnv(
  database: { url: string },
  exa: { url: string },
  openai: { apiKey: string; baseUrl: string },
): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS,
    EXA_API_KEY: STUB_EXA_API_KEY,
    EXA_BASE_URL: exa.url,
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseUrl,
  }
}

export type LogLine = { level: string; msg: string; [field: string]: unknown }

export type SextantProcess = {
  child: ChildProcess
  lines: LogLine[]
  stderr: () => string
  waitForLog: (predicate: (line: LogLine) => boolean, timeoutMs?: number) => Promise<LogLine>
  exited: Promise<number | null>
}

/**
 * `node server/main.ts`, or with `npm: true` the `npm start` a newcomer (or a container) runs. With
 * `processGroup: true` it leads a process group of its own, as a terminal's foreground job does, so
 * a test can signal the whole group as Ctrl-C does (`process.kill(-child.pid, 'SIGINT')`).
 */
export function spawnSextant(
  env: Record<string, string>,
  options: { npm?: boolean; processGroup?: boolean } = {},
): SextantProcess {
  const [file, args] = options.npm ? ['npm', ['start']] : [process.execPath, [path.join(projectRoot, 'server/main.ts')]]
  const child = spawn(file, args, {
    cwd: projectRoot,
    // The global setup built the app; a spawned app must not rebuild it under the other tests.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      PORT: '0',
      BUILD_ON_START: 'false',
      ...offlineSearch(env),
      // A developer's own Ollama must not change what tests see, and CI probes nothing.
      OLLAMA_BASE_URL: 'none',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  })
  const lines: LogLine[] = []
  const waiters = new Set<() => void>()
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    try {
      lines.push(JSON.parse(text) as LogLine)
    } catch {
      lines.push({ level: 'text', msg: text })
    }
    for (const wake of waiters) wake()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

  function waitForLog(predicate: (line: LogLine) => boolean, timeoutMs = 60_000): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.find(predicate)
        if (!found) return
        cleanup()
        resolve(found)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(
          new Error(`log line not seen in ${timeoutMs} ms. Logs:\n${lines.map((l) => l.msg).join('\n')}\n${stderr}`),
        )
      }, timeoutMs)
      const onExit = () => {
        cleanup()
        reject(new Error(`process exited before the log line appeared. Logs:\n${JSON.stringify(lines)}\n${stderr}`))
      }
      function cleanup() {
        clearTimeout(timer)
        waiters.delete(check)
        child.off('exit', onExit)
      }
      waiters.add(check)
      child.once('exit', onExit)
      check()
    })
  }
  return { child, lines, stderr: () => stderr, waitForLog, exited }
}

/** Pids of running processes whose command line mentions `text` (Linux /proc). */
export function processesMentioning(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Runs `node server/cli.ts ...args` to completion; `input` is its stdin. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'server/cli.ts'), ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    })
    child.stdin?.end(input)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => (stdout += chunk))
    child.stderr?.on('data', (chunk) => (stderr += chunk))
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

/** Sextant processes started on one `env` (so one database), each serving and working. */
export type Sextants = { processes: SextantProcess[]; urls: string[]; stop: () => Promise<void> }

/** Starts `count` processes on `env` and waits until each listens; stop() ends them all. */
export async function startSextants(count: number, env: Record<string, string>): Promise<Sextants> {
  const processes = Array.from({ length: count }, () => spawnSextant(env))
  const stop = async () => {
    for (const app of processes) {
      app.child.kill('SIGTERM')
      await app.exited
    }
  }
  try {
    const urls = await Promise.all(
      processes.map(async (app) => (await app.waitForLog((line) => typeof line.url === 'string')).url as string),
    )
    return { processes, urls, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
