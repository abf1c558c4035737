// BM25 ranking of short texts against a query: memory's facts for `search_memory`
// (server/memory/search.ts), the passages of a run's pages against its brief (passages.ts) and
// memory's claims against what a run is about (digest.ts). Tokenizing is the caller's.

const K1 = 1.2
const B = 0.75

/** BM25 (k1 1.2, b 0.75) over the given documents; scores a document by index for a query's terms. */
export function bm25(documents: string[][]): (index: number, query: string[]) => number {
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
    const lengthNorm = 1 - B + (B * (documents[index]?.length ?? 0)) / averageLength
    let score = 0
    for (const term of query) {
      const frequency = map.get(term) ?? 0
      if (frequency === 0) continue
      const n = containing.get(term) ?? 0
      const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5))
      score += (idf * frequency * (K1 + 1)) / (frequency + K1 * lengthNorm)
    }
    return score
  }
}
