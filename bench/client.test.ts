import { afterEach, expect, test, vi } from 'vitest'
import { now, onOurClock } from '#bench/client.ts'

afterEach(() => vi.restoreAllMocks())

test("a Postgres timestamp is put on the harness's clock by the offset between the two when it is read", () => {
  // The system clock was set back 30 ms after the harness started: its monotonic time is ahead.
  vi.spyOn(Date, 'now').mockImplementation(() => now() - 30)
  expect(onOurClock(1_000_000)).toBeCloseTo(1_000_030, 0)
})
