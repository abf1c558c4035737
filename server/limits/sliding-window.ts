// The sliding window as pure arithmetic. A window is cut into SLICES parts; a request counts in
// its slice until the slice's start is a whole window behind, so it stops counting at most one
// window after it was made (a slice early at most), and the wait a client is told, the RateLimit
// header's `t`, never exceeds the window (issue 41, item 10). Windows are anchored at the Unix epoch,
// so every process agrees on the slices.

/** Slices of one window: a request is let go at most a sixtieth of the window early. */
export const SLICES = 60

export type SlicePosition = {
  /** The slice `now` falls in. */
  slice: number
  /** The oldest slice still inside the window: SLICES - 1 before `slice` (and `extraSlices` more). */
  oldestCounted: number
  /** Slices a request counts for beyond the window's: 0 for clients; more for a strict rate. */
  extraSlices: number
  nowMs: number
  windowMs: number
}

export type SlidingWindowOutcome = {
  allowed: boolean
  /** Whole requests that would still be admitted right after this one. */
  remaining: number
  /** Until one more request than `remaining` would be admitted, if nothing else arrives: at most the window. */
  resetMs: number
  /** Until a request would be admitted; 0 when this one was. */
  retryAfterMs: number
}

export function slicePosition(nowMs: number, windowSeconds: number, extraSlices = 0): SlicePosition {
  const windowMs = windowSeconds * 1000
  const now = Math.floor(nowMs)
  // now × SLICES / windowMs, in integers: a slice's edges never depend on float rounding.
  const slice = Math.floor((now * SLICES) / windowMs)
  return { slice, oldestCounted: slice - SLICES + 1 - extraSlices, nowMs: now, windowMs, extraSlices }
}

/** When a slice stops counting: when the slice a whole window after it begins. */
export function sliceExpiresAtMs(slice: number, windowMs: number, extraSlices = 0): number {
  return Math.ceil(((slice + SLICES + extraSlices) * windowMs) / SLICES)
}

/**
 * Decides one request of `cost` (1 unless a caller takes several turns at once). `counted` is what
 * the window holds with this request in it, and `oldest` the oldest slice holding any (this one's, if
 * none other). Admits it when that is at most `limit`; a refused request is not counted.
 */
export function evaluateSlidingWindow(
  limit: number,
  window: { counted: number; oldest: number },
  position: SlicePosition,
  cost = 1,
): SlidingWindowOutcome {
  const allowed = window.counted <= limit
  const held = allowed ? window.counted : window.counted - cost
  const remaining = Math.max(0, limit - held)
  // One more fits when the oldest slice holding a request stops counting: at most one window away.
  const resetMs =
    held === 0
      ? 0
      : Math.max(0, sliceExpiresAtMs(window.oldest, position.windowMs, position.extraSlices) - position.nowMs)
  return { allowed, remaining, resetMs, retryAfterMs: allowed ? 0 : resetMs }
}
