// BM25 ranking of short texts against a query: memory's facts for `search_memory`
// (server/topics/search.ts), the passages of a run's pages against its brief (passages.ts) and
// memory's claims against what a run is about (digest.ts). Tokenizing is the caller's.

const K1 = 1.2
const B = 0.75

/** The documents holding a term, in order, and how often each holds it. */
type Postings = { documents: number[]; counts: number[] }

/**
 * BM25 (k1 1.2, b 0.75) over the given documents; scores a document by index for a query's terms.
 * `queryTerms`, when the queries are known beforehand, are the only terms indexed (a document's
 * length still counts all its tokens): a query of other terms then scores as if they were absent.
 */
export function bm25(documents: string[][], queryTerms?: Set<string>): (index: number, query: string[]) => number {
  // One index of every term, not a map per document: a run scores thousands of short passages.
  const index = new Map<string, Postings>()
  documents.forEach((tokens, document) => {
    for (const token of tokens) {
      if (queryTerms && !queryTerms.has(token)) continue
      const postings = index.get(token)
      if (!postings) index.set(token, { documents: [document], counts: [1] })
      else if (postings.documents.at(-1) === document) {
        const last = postings.counts.length - 1
        postings.counts[last] = (postings.counts[last] as number) + 1
      } else {
        postings.documents.push(document)
        postings.counts.push(1)
      }
    }
  })
  const averageLength = documents.reduce((sum, tokens) => sum + tokens.length, 0) / Math.max(1, documents.length)
  return (document, query) => {
    const tokens = documents[document]
    if (!tokens || averageLength === 0) return 0
    const lengthNorm = 1 - B + (B * tokens.length) / averageLength
    let score = 0
    for (const term of query) {
      const postings = index.get(term)
      const frequency = postings ? frequencyIn(postings, document) : 0
      if (frequency === 0) continue
      const n = postings?.documents.length ?? 0
      const idf = Math.log(1 + (documents.length - n + 0.5) / (n + 0.5))
      score += (idf * frequency * (K1 + 1)) / (frequency + K1 * lengthNorm)
    }
    return score
  }
}

/** How often the document holds the term: a binary search of its postings. */
function frequencyIn(postings: Postings, document: number): number {
  let low = 0
  let high = postings.documents.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = postings.documents[middle] as number
    if (at === document) return postings.counts[middle] as number
    if (at < document) low = middle + 1
    else high = middle - 1
  }
  return 0
}
