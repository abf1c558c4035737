import { setTimeout as sleep } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { batchedWriter } from '#server/events/batched-writes.ts'

/** A write that resolves (or fails) when the test says, recording what it was given. */
function controlledWrites() {
  const writes: Array<{ items: string[]; finish: (error?: Error) => void }> = []
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push({ items, finish: (error) => (error ? reject(error) : resolve()) })
    })
  return { writes, write }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

test('items made while a write is in flight go together in the next, in the order they were made', async () => {
  const { writes, write } = controlledWrites()
  const { write: append } = batchedWriter(write)
  const first = append('a')
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a']])
  const later = [append('b'), append('c'), append('d')]
  await settled()
  // Nothing else is written while the first write is in flight.
  expect(writes).toHaveLength(1)
  writes[0]?.finish()
  await first
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd']])
  writes[1]?.finish()
  await Promise.all(later)
  // Idle again: the next item goes at once, alone.
  const next = append('e')
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b', 'c', 'd'], ['e']])
  writes[2]?.finish()
  await next
})

test('items made in one task go in one write', async () => {
  const { writes, write } = controlledWrites()
  const { write: append } = batchedWriter(write)
  const all = Promise.all([append('a'), append('b')])
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a', 'b']])
  writes[0]?.finish()
  await all
})

test('a failed write rejects its own items only; the writer goes on with the next', async () => {
  const { writes, write } = controlledWrites()
  const { write: append } = batchedWriter(write)
  const first = append('a')
  await settled()
  const second = append('b')
  writes[0]?.finish(new Error('connection lost'))
  await expect(first).rejects.toThrow('connection lost')
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b']])
  writes[1]?.finish()
  await expect(second).resolves.toBeUndefined()
})

test('settled waits for every item made so far, failed or written', async () => {
  const { writes, write } = controlledWrites()
  const writer = batchedWriter(write)
  await writer.settled() // nothing made: at once
  const first = writer.write('a').catch(() => 'failed')
  await settled()
  const second = writer.write('b')
  let done = false
  void writer.settled().then(() => (done = true))
  writes[0]?.finish(new Error('connection lost'))
  await settled()
  expect(done).toBe(false) // 'b' is being written
  writes[1]?.finish()
  await settled()
  expect(done).toBe(true)
  expect(await first).toBe('failed')
  await second
})

test('a lingering item goes with the next item that does not linger, in one write', async () => {
  const { writes, write } = controlledWrites()
  const writer = batchedWriter(write, { lingerMs: 10_000 })
  const done = [writer.write('query a', { linger: true }), writer.write('query b', { linger: true })]
  await sleep(20)
  // A round's events wait for the boundary rather than go in a statement it would wait behind.
  expect(writes).toHaveLength(0)
  done.push(writer.write('boundary'))
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['query a', 'query b', 'boundary']])
  writes[0]?.finish()
  await Promise.all(done)
})

test('a lingering item goes alone once its time is up, or at once when flushed or settled', async () => {
  const { writes, write } = controlledWrites()
  const writer = batchedWriter(write, { lingerMs: 30 })
  const first = writer.write('a', { linger: true })
  await sleep(5)
  expect(writes).toHaveLength(0)
  await sleep(60)
  expect(writes.map((w) => w.items)).toEqual([['a']])
  writes[0]?.finish()
  await first

  const second = writer.write('b', { linger: true })
  writer.flush()
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b']])
  writes[1]?.finish()
  await second

  const third = writer.write('c', { linger: true })
  const all = writer.settled()
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b'], ['c']])
  writes[2]?.finish()
  await Promise.all([third, all])
})

test('a lingering item made while a write is in flight goes in the next write without waiting', async () => {
  const { writes, write } = controlledWrites()
  const writer = batchedWriter(write, { lingerMs: 10_000 })
  const first = writer.write('a')
  await settled()
  const second = writer.write('b', { linger: true })
  writes[0]?.finish()
  await first
  await settled()
  expect(writes.map((w) => w.items)).toEqual([['a'], ['b']])
  writes[1]?.finish()
  await second
})
