// Embedding vectors as memory keeps them: 256 dimensions, unit length, one signed byte each, base64
// (344 characters a fact, so 2,000 facts add under 700 KB to a topic's sealed memory). A longer
// vector is folded to 256 dimensions by a count sketch (each dimension added, with a fixed sign, to
// one of the 256), which keeps inner products close at a cost linear in its length.

export const VECTOR_DIMENSIONS = 256

/** A unit vector of 256 dimensions, from any embedding. */
export function foldVector(vector: readonly number[]): number[] {
  let folded: number[]
  if (vector.length <= VECTOR_DIMENSIONS) {
    folded = [...vector]
  } else {
    folded = new Array<number>(VECTOR_DIMENSIONS).fill(0)
    for (let i = 0; i < vector.length; i++) {
      const hash = mix(i)
      folded[hash % VECTOR_DIMENSIONS] =
        (folded[hash % VECTOR_DIMENSIONS] as number) + ((hash >>> 16) & 1 ? 1 : -1) * (vector[i] as number)
    }
  }
  return unit(folded)
}

/** The stored form: signed bytes of the unit vector, base64. */
export function packVector(vector: readonly number[]): string {
  const folded = foldVector(vector)
  // A loop, not Int8Array.from with a mapping function: that path was half of this file's CPU in a
  // profile of 100 concurrent runs.
  const bytes = new Int8Array(folded.length)
  for (let i = 0; i < folded.length; i++)
    bytes[i] = Math.max(-127, Math.min(127, Math.round((folded[i] as number) * 127)))
  return Buffer.from(bytes.buffer).toString('base64')
}

/** A stored vector back as a unit vector; undefined when it is not one we wrote. */
export function unpackVector(packed: string | undefined): number[] | undefined {
  if (!packed) return undefined
  const bytes = Buffer.from(packed, 'base64')
  if (bytes.length !== VECTOR_DIMENSIONS) return undefined
  return unit(Array.from(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), (value) => value / 127))
}

function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector)
  return norm > 0 ? vector.map((value) => value / norm) : vector
}

/** A fixed integer hash of a dimension's index (murmur3's finalizer). */
function mix(index: number): number {
  let h = index + 0x9e3779b9
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}
