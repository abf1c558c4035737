// The sliding-window counter, as pure arithmetic: the previous window's count weighted by how much
// of it still lies within the last `window` of time, plus the current window's count.
// Comparisons are done on estimate × windowMs, which stays an integer, so float rounding can never
// admit or refuse a request that sits exactly on the limit.

export type WindowPosition = { index: number; elapsedMs: number; windowMs: number }

export type WindowCounts = { previous: number; current: number }

export type SlidingWindowOutcome = {
  allowed: boolean
  /** Whole requests that would still be admitted right after this one. */
  remaining: number
  /** Until one more request than `remaining` would be admitted, if nothing else arrives. */
  resetMs: number
  /** Until a request would be admitted; 0 when this one was. */
  retryAfterMs: number
}

/** Windows are anchored at the Unix epoch, so every process agrees on the index. */
export function windowPosition(nowMs: number, windowSeconds: number): WindowPosition {
  const windowMs = windowSeconds * 1000
  const now = Math.floor(nowMs)
  const index = Math.floor(now / windowMs)
  return { index, elapsedMs: now - index * windowMs, windowMs }
}

/** previous × (1 − elapsed/window) + current. */
export function slidingEstimate(counts: WindowCounts, position: WindowPosition): number {
  return scaledEstimate(counts, position) / position.windowMs
}

function scaledEstimate({ previous, current }: WindowCounts, { elapsedMs, windowMs }: WindowPosition): number {
  return previous * (windowMs - elapsedMs) + current * windowMs
}

/**
 * Decides one request. `counts.current` excludes the request being decided. Admits it when
 * estimate + 1 <= limit; a refused request is not counted.
 */
export function evaluateSlidingWindow(
  limit: number,
  counts: WindowCounts,
  position: WindowPosition,
): SlidingWindowOutcome {
  const { windowMs } = position
  const allowed =
    scaledEstimate({ previous: counts.previous, current: counts.current + 1 }, position) <= limit * windowMs
  const after = { previous: counts.previous, current: counts.current + (allowed ? 1 : 0) }
  const remaining = Math.max(0, Math.floor((limit * windowMs - scaledEstimate(after, position)) / windowMs))
  const resetMs = msUntilAvailable(limit, remaining + 1, after, position)
  return { allowed, remaining, resetMs, retryAfterMs: allowed ? 0 : resetMs }
}

/**
 * How long until `units` requests fit, assuming no other request arrives: first the previous
 * window's weight drains over the rest of this window; if that is not enough, this window's count
 * becomes the previous one and drains over the next window.
 */
export function msUntilAvailable(limit: number, units: number, counts: WindowCounts, position: WindowPosition): number {
  const { previous, current } = counts
  const { elapsedMs, windowMs } = position
  const budget = (limit - units) * windowMs
  if (budget < 0) return Number.POSITIVE_INFINITY
  if (scaledEstimate(counts, position) <= budget) return 0
  if (current * windowMs <= budget) {
    // previous > 0 here, else the estimate would already fit.
    const availableAt = windowMs - Math.floor((budget - current * windowMs) / previous)
    return availableAt - elapsedMs
  }
  const availableAtInNextWindow = windowMs - Math.floor(budget / current)
  return windowMs - elapsedMs + availableAtInNextWindow
}
