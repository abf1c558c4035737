import { expect, test } from 'vitest'
import { evaluateSlidingWindow, slidingEstimate, windowPosition } from '#server/limits/sliding-window.ts'

const HOUR_MS = 3_600_000

function at(elapsedMs: number) {
  return { index: 100, elapsedMs, windowMs: HOUR_MS }
}

test('the window position is anchored at the epoch', () => {
  expect(windowPosition(Date.UTC(2030, 0, 1, 10, 15), 3600)).toEqual({
    index: Date.UTC(2030, 0, 1, 10) / HOUR_MS,
    elapsedMs: 15 * 60_000,
    windowMs: HOUR_MS,
  })
})

test('the estimate weighs the previous window by the part of it still inside the sliding window', () => {
  expect(slidingEstimate({ previous: 4, current: 1 }, at(HOUR_MS / 4))).toBe(4)
  expect(slidingEstimate({ previous: 4, current: 1 }, at(0))).toBe(5)
  expect(slidingEstimate({ previous: 4, current: 1 }, at(HOUR_MS - 1))).toBeCloseTo(1, 5)
})

test('with no history exactly `limit` requests pass and the next one is refused', () => {
  const outcomes = []
  let current = 0
  for (let request = 0; request < 6; request++) {
    const outcome = evaluateSlidingWindow(5, { previous: 0, current }, at(HOUR_MS / 2))
    if (outcome.allowed) current++
    outcomes.push([outcome.allowed, outcome.remaining])
  }
  expect(outcomes).toEqual([
    [true, 4],
    [true, 3],
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
  ])
})

test('requests at the end of a window still count at the start of the next', () => {
  // A fixed window would allow 5 more here; the sliding window waits until 1/5 of the old ones drained.
  const refused = evaluateSlidingWindow(5, { previous: 5, current: 0 }, at(1000))
  expect(refused).toMatchObject({ allowed: false, remaining: 0 })
  expect(refused.retryAfterMs).toBe(HOUR_MS / 5 - 1000)

  expect(evaluateSlidingWindow(5, { previous: 5, current: 0 }, at(HOUR_MS / 5 - 1)).allowed).toBe(false)
  expect(evaluateSlidingWindow(5, { previous: 5, current: 0 }, at(HOUR_MS / 5)).allowed).toBe(true)
})

test('a request that brings the estimate exactly to the limit is admitted, whatever floats would say', () => {
  // 10 × (1 − 0.7) is 3.0000000000000004 in floats, which would refuse the 4th of 4; in integers it is 3.
  const outcome = evaluateSlidingWindow(4, { previous: 10, current: 0 }, at(2_520_000))
  expect(outcome).toMatchObject({ allowed: true, remaining: 0 })
})

test('when this window alone is over the limit, the retry falls in the next window', () => {
  const outcome = evaluateSlidingWindow(5, { previous: 0, current: 5 }, at(HOUR_MS / 2))
  expect(outcome.allowed).toBe(false)
  expect(outcome.retryAfterMs).toBe(HOUR_MS / 2 + HOUR_MS / 5)
})

test('a partial previous window leaves fractional room, and reset says when one more whole request frees up', () => {
  // Estimate after this request: 3 × 0.5 + 1 = 2.5, so 2 more fit now and a third once it drops to 2.
  const outcome = evaluateSlidingWindow(5, { previous: 3, current: 0 }, at(HOUR_MS / 2))
  expect(outcome).toMatchObject({ allowed: true, remaining: 2, retryAfterMs: 0 })
  expect(outcome.resetMs).toBe(HOUR_MS / 6)
})
