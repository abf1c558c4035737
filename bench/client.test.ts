import { afterEach, expect, test, vi } from 'vitest'
import { now, onOurClock } from '#bench/client.ts'

afterEach(() => vi.restoreAllMocks())

test("a Postgres timestamp is put on the harness's clock by the offset between the two when it is read", () => {
  // The system clock was set back 30 ms after the harness started: its monotonic time is ahead.
  // Both clocks are held still, so a pause between the two reads (a busy machine) cannot move it.
  const at = now()
  vi.spyOn(performance, 'now').mockReturnValue(at - performance.timeOrigin)
  vi.spyOn(Date, 'now').mockReturnValue(at - 30)
  expect(onOurClock(1_000_000)).toBeCloseTo(1_000_030, 3)
})
