import { expect, test } from 'vitest'
import { createPacer } from '#server/providers/search/pacer.ts'
import { type Clock, systemClock } from '#server/providers/sleep-until.ts'

const noDeadline = new AbortController().signal

test('requests run one at a time, in order, their starts at least the interval apart', async () => {
  // The real clock and real timers, read through a wrapper so each request can record the time the
  // pacer read as its start. A clock read inside the request would be later by however long the
  // process was descheduled in between, which shortens the measured gap: a CI run saw 142 ms.
  let lastRead = 0
  const clock: Clock = { now: () => (lastRead = Date.now()), sleep: systemClock.sleep }
  const pacer = createPacer(150, clock)
  const log: string[] = []
  const starts: number[] = []
  let running = 0
  const request = (name: string) => async () => {
    running += 1
    expect(running).toBe(1)
    starts.push(lastRead)
    log.push(`start ${name}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
    log.push(`end ${name}`)
    running -= 1
    return name
  }
  const results = await Promise.all(['a', 'b', 'c'].map((name) => pacer.run(request(name), noDeadline)))
  expect(results).toEqual(['a', 'b', 'c'])
  expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
  // Lower bounds only: a busy machine makes the gaps longer, never shorter.
  expect((starts[1] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(150)
  expect((starts[2] as number) - (starts[1] as number)).toBeGreaterThanOrEqual(150)
})

test('a timer that fires early does not let a request start before the interval is up', async () => {
  // Node counts a timer from the event loop's cached time, which lags when the loop is busy, so a
  // sleep can end before the clock says it should: here every long sleep ends 15 ms early.
  let now = 1_000_000
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms > 20 ? ms - 15 : ms
    },
  }
  const pacer = createPacer(150, clock)
  const starts: number[] = []
  const request = async () => {
    starts.push(now)
    now += 20 // the request itself takes a while
  }
  await Promise.all([pacer.run(request, noDeadline), pacer.run(request, noDeadline), pacer.run(request, noDeadline)])
  expect(starts).toEqual([1_000_000, 1_000_150, 1_000_300])
})

test('a request that gives up waiting passes its turn on, and the order holds', async () => {
  const pacer = createPacer(0)
  let releaseFirst = () => {}
  const first = pacer.run(() => new Promise<string>((resolve) => (releaseFirst = () => resolve('first'))), noDeadline)
  const impatient = new AbortController()
  const second = pacer.run(async () => 'second', impatient.signal)
  const third = pacer.run(async () => 'third', noDeadline)
  impatient.abort(new Error('gave up'))
  await expect(second).rejects.toThrow('gave up')
  let thirdDone = false
  void third.then(() => (thirdDone = true))
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(thirdDone).toBe(false) // still behind the first, which has not finished
  releaseFirst()
  expect(await first).toBe('first')
  expect(await third).toBe('third')
})

test('a failed request still spaces the next, unless it never reached the server', async () => {
  const pacer = createPacer(10_000)
  const unreachable = Object.assign(new Error('refused'), { reachedServer: false })
  const reachedServer = (error: unknown) => (error as { reachedServer?: boolean }).reachedServer !== false
  await expect(
    pacer.run(
      async () => {
        throw unreachable
      },
      noDeadline,
      reachedServer,
    ),
  ).rejects.toThrow('refused')
  // The server never saw the first: the second goes at once, not 10 s later.
  const started = performance.now()
  await expect(pacer.run(async () => 'ok', noDeadline, reachedServer)).resolves.toBe('ok')
  expect(performance.now() - started).toBeLessThan(5000)
  // It did see the second: a third must wait out the interval (here it gives up instead).
  await expect(pacer.run(async () => 'late', AbortSignal.timeout(100), reachedServer)).rejects.toThrow()
})
