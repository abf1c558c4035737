// Which pages of a run carry the text of an earlier one (a syndicated copy, a mirror): those are
// read once (passages.ts). Two pages are the same text when they share at least 80% of their
// five-word shingles (Jaccard). A shingle is a number here, not its words joined: the position where
// its five words first occur in the run's pages, found through a hash table that compares the words
// themselves, so equal numbers mean equal words and every count and share is that of the words.
import { wordTokens } from '#server/text/words.ts'

/** Word shingles of this length compare two pages' texts. */
const SHINGLE = 5
/** Two pages sharing this share of their shingles carry the same text. */
const SAME_TEXT = 0.8

/** Pages whose text an earlier page of the list already carries (word-shingle Jaccard >= 0.8); `wordsOf` is wordTokens, or a memo of it. */
export function sameTextPages(
  pages: Array<{ text: string }>,
  wordsOf: (text: string) => string[] = wordTokens,
): number[] {
  const words = pages.map((page) => wordsOf(page.text))
  const shingles = shingleSets(words)
  const duplicates: number[] = []
  // The pages each shingle is on so far, as linked lists (a page is compared only with pages it
  // shares a shingle with): `last[shingle]` is its latest entry, `previous[entry]` the one before.
  const entries = shingles.reduce((sum, set) => sum + set.length, 0)
  const pageOf = new Int32Array(entries)
  const previous = new Int32Array(entries)
  // Shingles are numbered below the number of words.
  const last = new Int32Array(words.reduce((sum, list) => sum + list.length, 0)).fill(-1)
  let entry = 0
  const shared = new Int32Array(pages.length)
  shingles.forEach((mine, index) => {
    shared.fill(0, 0, index)
    for (const shingle of mine) {
      for (let held = last[shingle] as number; held >= 0; held = previous[held] as number) {
        const page = pageOf[held] as number
        shared[page] = (shared[page] as number) + 1
      }
      pageOf[entry] = index
      previous[entry] = last[shingle] as number
      last[shingle] = entry++
    }
    if (mine.length === 0) return
    // The first earlier page, in page order, that is not itself a copy.
    for (let earlier = 0; earlier < index; earlier++) {
      if (duplicates.includes(earlier)) continue
      const both = shared[earlier] as number
      const theirs = (shingles[earlier] as number[]).length
      if (both / (mine.length + theirs - both) >= SAME_TEXT) {
        duplicates.push(index)
        return
      }
    }
  })
  return duplicates
}

/** Each page's distinct shingles, as numbers: equal for the same five words, wherever they are. */
export function shingleSets(pages: string[][]): number[][] {
  // Every word as a number, and all pages' words in one array.
  const vocabulary = new Map<string, number>()
  let joinable = true
  const total = pages.reduce((sum, words) => sum + words.length, 0)
  const ids = new Int32Array(total)
  let at = 0
  for (const words of pages) {
    for (const word of words) {
      let id = vocabulary.get(word)
      if (id === undefined) {
        id = vocabulary.size
        vocabulary.set(word, id)
        // Words joined by spaces are the same words only while no word holds a space.
        if (word.includes(' ')) joinable = false
      }
      ids[at++] = id
    }
  }
  if (!joinable) return joinedShingleSets(pages)
  // Open addressing: a slot holds 1 + the first position of a shingle's words.
  const table = new Int32Array(2 ** Math.ceil(Math.log2(2 * total + 2)))
  const mask = table.length - 1
  const seenOn = new Int32Array(total).fill(-1)
  const sets: number[][] = []
  let start = 0
  pages.forEach((words, page) => {
    const set: number[] = []
    for (let p = start; p + SHINGLE <= start + words.length; p++) {
      let hash = 0x811c9dc5
      for (let i = 0; i < SHINGLE; i++) hash = Math.imul(hash ^ (ids[p + i] as number), 0x01000193)
      let slot = hash & mask
      let first = p
      for (;;) {
        const held = table[slot] as number
        if (held === 0) {
          table[slot] = p + 1
          break
        }
        if (sameWords(ids, held - 1, p)) {
          first = held - 1
          break
        }
        slot = (slot + 1) & mask
      }
      if (seenOn[first] !== page) {
        seenOn[first] = page
        set.push(first)
      }
    }
    sets.push(set)
    start += words.length
  })
  return sets
}

function sameWords(ids: Int32Array, a: number, b: number): boolean {
  for (let i = 0; i < SHINGLE; i++) if (ids[a + i] !== ids[b + i]) return false
  return true
}

/** Shingles as their words joined, numbered in order of first appearance. */
function joinedShingleSets(pages: string[][]): number[][] {
  const numbers = new Map<string, number>()
  return pages.map((words) => {
    const set = new Set<number>()
    for (let i = 0; i + SHINGLE <= words.length; i++) {
      const joined = words.slice(i, i + SHINGLE).join(' ')
      let id = numbers.get(joined)
      if (id === undefined) {
        id = numbers.size
        numbers.set(joined, id)
      }
      set.add(id)
    }
    return [...set]
  })
}
