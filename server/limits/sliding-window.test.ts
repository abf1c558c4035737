import fc from 'fast-check'
import { expect, test } from 'vitest'
import { evaluateSlidingWindow, SLICES, sliceExpiresAtMs, slicePosition } from '#server/limits/sliding-window.ts'

const HOUR_MS = 3_600_000
const SLICE_MS = HOUR_MS / SLICES

test('slices are anchored at the epoch, and a slice counts for one window from its start', () => {
  const position = slicePosition(Date.UTC(2030, 0, 1, 10, 15, 30), 3600)
  expect(position.slice).toBe(Date.UTC(2030, 0, 1, 10, 15) / SLICE_MS)
  expect(position.oldestCounted).toBe(position.slice - SLICES + 1)
  expect(sliceExpiresAtMs(position.slice, HOUR_MS)).toBe(Date.UTC(2030, 0, 1, 11, 15))
})

test('with no history exactly `limit` requests pass and the next one is refused', () => {
  const position = slicePosition(Date.UTC(2030, 0, 1, 10, 30), 3600)
  const outcomes = []
  let counted = 0
  for (let request = 0; request < 6; request++) {
    const outcome = evaluateSlidingWindow(5, { counted: counted + 1, oldest: position.slice }, position)
    if (outcome.allowed) counted++
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

test('a refusal is told to wait until the oldest slice holding a request stops counting', () => {
  const position = slicePosition(Date.UTC(2030, 0, 1, 11, 0, 1), 3600)
  const oldest = slicePosition(Date.UTC(2030, 0, 1, 10, 59, 59), 3600).slice
  const refused = evaluateSlidingWindow(5, { counted: 6, oldest }, position)
  expect(refused).toMatchObject({ allowed: false, remaining: 0 })
  // The 10:59 slice counts until 11:59.
  expect(refused.retryAfterMs).toBe(Date.UTC(2030, 0, 1, 11, 59) - Date.UTC(2030, 0, 1, 11, 0, 1))
})

test('what a client is told to wait never exceeds the window, wherever in it the requests fall', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 86_400 }),
      fc.integer({ min: 0, max: 2 ** 41 }),
      fc.array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 10 }),
      (windowSeconds, startMs, gaps, limit) => {
        // Requests at startMs + gaps (in order), each counted if admitted, as a store counts them.
        const held = new Map<number, number>()
        let clock = startMs
        for (const gap of gaps) {
          clock += gap
          const position = slicePosition(clock, windowSeconds)
          for (const slice of held.keys()) if (slice < position.oldestCounted) held.delete(slice)
          held.set(position.slice, (held.get(position.slice) ?? 0) + 1)
          const counted = [...held.values()].reduce((sum, hits) => sum + hits, 0)
          const oldest = Math.min(...held.keys())
          const outcome = evaluateSlidingWindow(limit, { counted, oldest }, position)
          if (!outcome.allowed) held.set(position.slice, (held.get(position.slice) ?? 1) - 1)
          expect(outcome.resetMs).toBeGreaterThanOrEqual(0)
          expect(outcome.resetMs).toBeLessThanOrEqual(windowSeconds * 1000)
          expect(outcome.retryAfterMs).toBeLessThanOrEqual(windowSeconds * 1000)
          if (!outcome.allowed) expect(outcome.retryAfterMs).toBeGreaterThan(0)
        }
      },
    ),
  )
})

test("a strict rate holds each request two slices past the window, so none goes within a window of the provider's clock", () => {
  const windowMs = 1000
  for (const nowMs of [0, 5, 16, 17, 999, 1000, 123_456]) {
    const position = slicePosition(nowMs, 1, 2)
    expect(position.oldestCounted).toBe(position.slice - SLICES - 1)
    // Made at any moment of its slice, a request stops counting a full window after it at least.
    expect(sliceExpiresAtMs(position.slice, windowMs, 2) - nowMs).toBeGreaterThanOrEqual(windowMs)
    // A client's limit lets it go up to a slice early.
    expect(sliceExpiresAtMs(position.slice, windowMs) - nowMs).toBeGreaterThan(windowMs - windowMs / SLICES - 1)
  }
})
