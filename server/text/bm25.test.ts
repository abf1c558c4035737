import fc from 'fast-check'
import { expect, test } from 'vitest'
import { bm25 } from '#server/text/bm25.ts'

/** BM25 as first written: a map of counts per document. */
function bm25ByDocumentMaps(documents: string[][]): (index: number, query: string[]) => number {
  const counts = documents.map((tokens) => {
    const map = new Map<string, number>()
    for (const token of tokens) map.set(token, (map.get(token) ?? 0) + 1)
    return map
  })
  const containing = new Map<string, number>()
  for (const map of counts) for (const term of map.keys()) containing.set(term, (containing.get(term) ?? 0) + 1)
  const averageLength = documents.reduce((sum, tokens) => sum + tokens.length, 0) / Math.max(1, documents.length)
  return (index, query) => {
    const map = counts[index]
    if (!map || averageLength === 0) return 0
    const lengthNorm = 1 - 0.75 + (0.75 * (documents[index]?.length ?? 0)) / averageLength
    let score = 0
    for (const term of query) {
      const frequency = map.get(term) ?? 0
      if (frequency === 0) continue
      const n = containing.get(term) ?? 0
      const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5))
      score += (idf * frequency * (1.2 + 1)) / (frequency + 1.2 * lengthNorm)
    }
    return score
  }
}

test('a document holding the query terms, and more of them, scores higher', () => {
  const score = bm25([
    ['heat', 'pump', 'norway'],
    ['weather', 'sports'],
    ['heat', 'pump', 'heat', 'pump'],
  ])
  expect(score(0, ['heat', 'pump'])).toBeGreaterThan(score(1, ['heat', 'pump']))
  expect(score(1, ['heat'])).toBe(0)
  expect(score(3, ['heat'])).toBe(0)
  expect(score(-1, ['heat'])).toBe(0)
})

/** Terms that collide with object keys, numbers, other scripts and the empty string among plain words. */
const anyTerm = fc.constantFrom('heat', 'pump', 'cost', '3.5', 'constructor', '__proto__', '计算', '')

test('every score is the one a map of counts per document gives, to the last bit', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(anyTerm, { maxLength: 12 }), { maxLength: 10 }),
      fc.array(anyTerm, { maxLength: 6 }),
      (documents, query) => {
        const fast = bm25(documents)
        const reference = bm25ByDocumentMaps(documents)
        for (let index = -1; index <= documents.length; index++) {
          expect(fast(index, query)).toBe(reference(index, query))
        }
        expect(fast(0.5, query)).toBe(reference(0.5, query))
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  )
})

test('indexing only the terms queries will use scores those queries to the last bit, and other terms as absent', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(anyTerm, { maxLength: 12 }), { maxLength: 10 }),
      fc.uniqueArray(anyTerm, { maxLength: 5 }),
      fc.array(anyTerm, { maxLength: 6 }),
      (documents, indexed, query) => {
        const only = new Set(indexed)
        const some = bm25(documents, only)
        const all = bm25(documents)
        for (let index = -1; index <= documents.length; index++) {
          expect(some(index, query)).toBe(
            all(
              index,
              query.filter((word) => only.has(word)),
            ),
          )
        }
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  )
})
