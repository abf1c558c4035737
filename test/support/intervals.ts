// How many of a set of runs (or any spans of time) were going at one moment.

/**
 * The most spans open at one instant. A span without a start never began; one without an end is
 * still open. An end and a start at the same instant do not overlap: the start came after it.
 */
export function mostAtOnce(spans: Array<{ start: number | undefined; end: number | undefined }>): number {
  const moments = spans.flatMap((span) =>
    span.start === undefined
      ? []
      : [
          { at: span.start, step: 1 },
          { at: span.end ?? Number.POSITIVE_INFINITY, step: -1 },
        ],
  )
  moments.sort((a, b) => a.at - b.at || a.step - b.step)
  let going = 0
  let most = 0
  for (const moment of moments) {
    going += moment.step
    most = Math.max(most, going)
  }
  return most
}
