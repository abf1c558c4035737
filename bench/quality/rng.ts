// A small seeded random number generator (mulberry32), so the synthetic web and the sloppy model
// are the same for the same seed on every machine.
import { createHash } from 'node:crypto'

export type Rng = {
  /** Uniform in [0, 1). */
  next: () => number
  /** An integer in [low, high], both included. */
  int: (low: number, high: number) => number
  chance: (probability: number) => boolean
  pick: <T>(items: readonly T[]) => T
  /** A shuffled copy. */
  shuffle: <T>(items: readonly T[]) => T[]
}

/** A generator seeded from any parts (a seed, a topic, a label): the same parts, the same sequence. */
export function createRng(...parts: Array<string | number>): Rng {
  let state = createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0)
  const next = () => {
    state = (state + 0x6d2b79f5) | 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1))
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    shuffle(items) {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i)
        ;[copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]]
      }
      return copy
    },
  }
}
