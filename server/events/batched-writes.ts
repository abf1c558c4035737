// Writes made in a burst go together: a run's searches answer within a millisecond of each other,
// and each answer's query_done event was a statement of its own, each waiting on the one before it
// for the run's event lock (issue 21: "batched event inserts").

/**
 * Writes items in the order they are made, one write at a time. The first goes as soon as the
 * current task yields; items made while a write is in flight go together in the next. Each item's
 * promise settles with the write that carried it: a failed write rejects its own items only.
 */
export function batchedWriter<T>(write: (items: T[]) => Promise<unknown>): (item: T) => Promise<void> {
  let pending: Array<{ item: T; settle: (failure?: { error: unknown }) => void }> = []
  let draining = false
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
    draining = false
  }
  return (item) =>
    new Promise<void>((resolve, reject) => {
      pending.push({ item, settle: (failure) => (failure ? reject(failure.error) : resolve()) })
      if (!draining) {
        draining = true
        queueMicrotask(drain)
      }
    })
}
