import { expect, test } from 'vitest'
import { SAME_REQUEST_MS, type StopSignal, stopSignalHandler } from '#server/stop-signals.ts'

function recorder() {
  let clock = 0
  const calls: string[] = []
  const handle = stopSignalHandler({
    stop: (signal) => calls.push(`stop ${signal}`),
    exitNow: (signal) => calls.push(`exit ${signal}`),
    echoed: (signal) => calls.push(`echo ${signal}`),
    now: () => clock,
  })
  return {
    calls,
    send(signal: StopSignal, atMs: number) {
      clock = atMs
      handle(signal)
    },
  }
}

test("npm's echo of a Ctrl-C is the same request: one clean stop", () => {
  const { calls, send } = recorder()
  send('SIGINT', 0)
  send('SIGINT', 40)
  expect(calls).toEqual(['stop SIGINT', 'echo SIGINT'])
})

test('a Ctrl-C after the moment has passed is a second request: exit at once', () => {
  const { calls, send } = recorder()
  send('SIGINT', 0)
  send('SIGINT', 30) // npm's echo
  send('SIGINT', SAME_REQUEST_MS + 1)
  expect(calls).toEqual(['stop SIGINT', 'echo SIGINT', 'exit SIGINT'])
})

test('another kind of signal is never an echo', () => {
  const { calls, send } = recorder()
  send('SIGTERM', 0)
  send('SIGINT', 1)
  expect(calls).toEqual(['stop SIGTERM', 'exit SIGINT'])
})
