// Writes made in a burst go together: a run's searches answer within a millisecond of each other,
// and each answer's query_done event was a statement of its own, each waiting on the one before it
// for the run's event lock (issue 21: "batched event inserts").

export type BatchedWriter<T> = {
  /**
   * Writes `item` in the order items are made, one write at a time. The first goes as soon as the
   * current task yields; items made while a write is in flight go together in the next. Its promise
   * settles with the write that carried it: a failed write rejects its own items only.
   */
  write: (item: T) => Promise<void>
  /** Resolves once every item made so far has been written or has failed. */
  settled: () => Promise<void>
}

export function batchedWriter<T>(write: (items: T[]) => Promise<unknown>): BatchedWriter<T> {
  let pending: Array<{ item: T; settle: (failure?: { error: unknown }) => void }> = []
  let draining: Promise<void> | undefined
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
  return {
    write: (item) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ item, settle: (failure) => (failure ? reject(failure.error) : resolve()) })
        draining ??= new Promise<void>((resolve) => queueMicrotask(resolve)).then(drain)
      }),
    settled: () => draining ?? Promise.resolve(),
  }
}
