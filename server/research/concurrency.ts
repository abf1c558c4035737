// A fixed number of workers taking items in order: the searches of a round, the pages read after it.

/** Calls `fn` on every item, at most `limit` at a time, items started in order; `index` is the item's. */
export async function mapWithConcurrency<T>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++
      await fn(items[index] as T, index)
    }
  })
  await Promise.all(workers)
}
