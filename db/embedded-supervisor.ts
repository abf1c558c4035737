// Keeps the embedded Postgres running: a server that dies on its own (kill -9, the OOM killer, a
// crash) is started again on the same data and port, after a wait that doubles with each failed
// attempt, so the pool, pg-boss and the event hub, which all reconnect, find it where it was.
import type { ChildProcess } from 'node:child_process'
import type { Logger } from '#server/logger.ts'

/** Starts the server; `ready` settles once it accepts connections (or it failed to start). */
export type Launch = () => { child: ChildProcess; ready: Promise<void> }

export type Supervisor = {
  pid: () => number | undefined
  /** Fast shutdown, and no more restarts; resolves when the server has exited. Safe to call twice. */
  stop: () => Promise<void>
  /**
   * The same fast shutdown asked for synchronously, without waiting: for a process exiting at once
   * (a second Ctrl-C, a shutdown that took too long), whose event loop will not turn again. The
   * server finishes stopping on its own.
   */
  stopNow: () => void
}

const FIRST_DELAY_MS = 250
const MAX_DELAY_MS = 30_000
/** A server that stayed up this long starts its backoff from the beginning when it next dies. */
const STABLE_MS = 60_000
const STOP_GRACE_MS = 15_000

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

function exited(child: ChildProcess): Promise<void> {
  return hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Launches the server and watches it; the first launch's failure is thrown to the caller. */
export async function superviseServer(options: {
  launch: Launch
  log: Logger
  /** Where the server writes its own log, for the operator reading ours. */
  logFile: string
  firstDelayMs?: number
}): Promise<Supervisor> {
  const { launch, log, logFile } = options
  const firstDelayMs = options.firstDelayMs ?? FIRST_DELAY_MS
  let child: ChildProcess | undefined
  let stopping: Promise<void> | undefined
  let stoppingNow = false
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  let upSince = 0

  async function launchAndWatch(): Promise<void> {
    const launched = launch()
    child = launched.child
    try {
      await launched.ready
    } catch (error) {
      if (!hasExited(launched.child)) launched.child.kill('SIGQUIT')
      await exited(launched.child)
      throw error
    }
    upSince = Date.now()
    const onExit = () => died(launched.child)
    launched.child.once('exit', onExit)
    if (hasExited(launched.child)) onExit()
  }

  function died(which: ChildProcess) {
    if (which !== child || stopping || stoppingNow) return
    if (Date.now() - upSince > STABLE_MS) failures = 0
    log.error(
      { code: which.exitCode, signal: which.signalCode, postgresPid: which.pid, logFile },
      'embedded Postgres exited unexpectedly; restarting it',
    )
    scheduleRestart()
  }

  function scheduleRestart() {
    failures += 1
    const delayMs = Math.min(MAX_DELAY_MS, firstDelayMs * 2 ** (failures - 1))
    log.warn({ attempt: failures, delayMs }, 'restarting embedded Postgres')
    timer = setTimeout(() => void restart(), delayMs)
  }

  async function restart() {
    timer = undefined
    if (stopping) return
    try {
      await launchAndWatch()
    } catch (error) {
      if (stopping) return
      log.error({ err: error, attempt: failures, logFile }, 'embedded Postgres did not restart; trying again')
      scheduleRestart()
      return
    }
    if (stopping) return
    log.info({ attempt: failures, postgresPid: child?.pid }, 'embedded Postgres restarted')
  }

  await launchAndWatch()

  return {
    pid: () => child?.pid,
    stopNow() {
      stoppingNow = true
      clearTimeout(timer)
      if (child && !hasExited(child)) child.kill('SIGINT')
    },
    stop() {
      stopping ??= (async () => {
        clearTimeout(timer)
        // A launch in progress is stopped the same way: its readiness wait sees it exit.
        const last = child
        if (!last || hasExited(last)) return
        last.kill('SIGINT')
        const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())
        if ((await Promise.race([exited(last).then(() => 'exited'), grace])) !== 'exited') last.kill('SIGQUIT')
        await exited(last)
      })()
      return stopping
    },
  }
}
