// The restart loop with real child processes standing in for Postgres: `sleep` for a server that
// runs, `sh -c 'exit 1'` for one that fails to start (as Postgres does while the shared memory of
// its killed predecessor is still held).
import { type ChildProcess, spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { type Launch, superviseServer } from '#db/embedded-supervisor.ts'
import { capturingLogger } from '#test/support/logger.ts'

/** Launches that follow `plan` in order (the last entry repeats), recording each child. */
function scripted(plan: Array<'runs' | 'fails'>) {
  const children: ChildProcess[] = []
  const launch: Launch = () => {
    const outcome = plan[Math.min(children.length, plan.length - 1)]
    const child = outcome === 'runs' ? spawn('sleep', ['60']) : spawn('sh', ['-c', 'exit 1'])
    children.push(child)
    const ready =
      outcome === 'runs'
        ? new Promise<void>((resolve) => child.once('spawn', () => resolve()))
        : new Promise<void>((_, reject) => child.once('exit', () => reject(new Error('did not start'))))
    return { child, ready }
  }
  return { launch, children }
}

async function until(done: () => boolean, timeoutMs = 10_000) {
  const deadline = performance.now() + timeoutMs
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await sleep(10)
  }
}

test('a server that dies is restarted, waiting twice as long after each failed attempt', async () => {
  const { log, lines } = capturingLogger()
  const { launch, children } = scripted(['runs', 'fails', 'fails', 'runs'])
  const server = await superviseServer({ launch, log, logFile: 'postgres.log', firstDelayMs: 20 })
  const first = children[0]
  first?.kill('SIGKILL')

  await until(() => lines.some((line) => line.msg === 'embedded Postgres restarted'))
  expect(lines.find((line) => line.msg === 'embedded Postgres exited unexpectedly; restarting it')).toMatchObject({
    signal: 'SIGKILL',
    postgresPid: first?.pid,
  })
  const delays = lines.filter((line) => line.msg === 'restarting embedded Postgres').map((line) => line.delayMs)
  expect(delays).toEqual([20, 40, 80])
  expect(children).toHaveLength(4)
  expect(server.pid()).toBe(children[3]?.pid)

  await server.stop()
  expect(children[3]?.signalCode).toBe('SIGINT')
  expect(children).toHaveLength(4)
})

test('stop() during the wait before a restart: no restart happens, and stop() resolves', async () => {
  const { log, lines } = capturingLogger()
  const { launch, children } = scripted(['runs'])
  const server = await superviseServer({ launch, log, logFile: 'postgres.log', firstDelayMs: 200 })
  children[0]?.kill('SIGKILL')
  await until(() => lines.some((line) => line.msg === 'restarting embedded Postgres'))

  await server.stop()
  await sleep(400) // past the restart's due time
  expect(children).toHaveLength(1)
  expect(lines.some((line) => line.msg === 'embedded Postgres restarted')).toBe(false)
})

test('the first launch failing is the caller’s error, with nothing left running', async () => {
  const { log } = capturingLogger()
  const { launch, children } = scripted(['fails'])
  await expect(superviseServer({ launch, log, logFile: 'postgres.log' })).rejects.toThrow('did not start')
  expect(children).toHaveLength(1)
  expect(children[0]?.exitCode).toBe(1)
})

test('stopNow() asks for the fast shutdown at once, and a server stopped so is not restarted', async () => {
  const { log, lines } = capturingLogger()
  const { launch, children } = scripted(['runs'])
  const server = await superviseServer({ launch, log, logFile: 'postgres.log', firstDelayMs: 20 })
  server.stopNow()
  await until(() => children[0]?.signalCode === 'SIGINT')
  await sleep(200) // past a restart's due time
  expect(children).toHaveLength(1)
  expect(lines.some((line) => line.msg === 'restarting embedded Postgres')).toBe(false)
})
