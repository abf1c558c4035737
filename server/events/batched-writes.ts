// Writes made in a burst go together: a run's searches answer within a millisecond of each other,
// and each answer's query_done event was a statement of its own, each waiting on the one before it
// for the run's event lock (issue 21: "batched event inserts").
//
// A write may also linger: wait a little for the next. A round's query_done events then go in the
// statement of the boundary that follows the round, instead of one of their own that the boundary
// would wait behind: while the step after it chooses passages, the thread reads no answer, so a
// statement in flight then holds the boundary, and the paid call after it, until that work is done.

export type BatchedWriter<T> = {
  /**
   * Writes `item` in the order items are made, one write at a time. The first goes as soon as the
   * current task yields; items made while a write is in flight go together in the next. A
   * lingering item waits up to the writer's `lingerMs` for another item that does not linger, and
   * goes with it (or alone when the time is up). Its promise settles with the write that carried
   * it: a failed write rejects its own items only.
   */
  write: (item: T, options?: { linger?: boolean }) => Promise<void>
  /** Writes lingering items now (with whatever else is waiting). */
  flush: () => void
  /** Resolves once every item made so far has been written or has failed (lingering ones sent now). */
  settled: () => Promise<void>
}

export function batchedWriter<T>(
  write: (items: T[]) => Promise<unknown>,
  options: { lingerMs?: number } = {},
): BatchedWriter<T> {
  let pending: Array<{ item: T; settle: (failure?: { error: unknown }) => void }> = []
  let draining: Promise<void> | undefined
  let lingering: NodeJS.Timeout | undefined
  const drain = async () => {
    while (pending.length > 0) {
      const batch = pending
      pending = []
      let failure: { error: unknown } | undefined
      try {
        await write(batch.map((entry) => entry.item))
      } catch (error) {
        failure = { error }
      }
      for (const entry of batch) entry.settle(failure)
    }
    draining = undefined
  }
  const flush = () => {
    clearTimeout(lingering)
    lingering = undefined
    if (pending.length > 0) draining ??= new Promise<void>((resolve) => queueMicrotask(resolve)).then(drain)
  }
  return {
    write: (item, { linger = false } = {}) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ item, settle: (failure) => (failure ? reject(failure.error) : resolve()) })
        // A write in flight carries everything made meanwhile in the next: nothing to wait for.
        if (!linger || draining) return flush()
        lingering ??= setTimeout(flush, options.lingerMs ?? 0)
      }),
    flush,
    settled: () => {
      flush()
      return draining ?? Promise.resolve()
    },
  }
}
