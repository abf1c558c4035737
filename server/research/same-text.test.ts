import fc from 'fast-check'
import { expect, test } from 'vitest'
import { sameTextPages, shingleSets } from '#server/research/same-text.ts'
import { wordTokens } from '#server/text/words.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 300)

/** The comparison as it was first written: shingles as their words joined, every pair of pages. */
function joinedShingleCopies(pages: Array<{ text: string }>): number[] {
  const shingles = pages.map((page) => {
    const words = wordTokens(page.text)
    const set = new Set<string>()
    for (let i = 0; i + 5 <= words.length; i++) set.add(words.slice(i, i + 5).join(' '))
    return set
  })
  const duplicates: number[] = []
  shingles.forEach((mine, index) => {
    if (mine.size === 0) return
    for (let earlier = 0; earlier < index; earlier++) {
      if (duplicates.includes(earlier)) continue
      const theirs = shingles[earlier] as Set<string>
      let shared = 0
      for (const shingle of mine) if (theirs.has(shingle)) shared += 1
      if (shared / (mine.size + theirs.size - shared) >= 0.8) {
        duplicates.push(index)
        return
      }
    }
  })
  return duplicates
}

test('a mirror of a page, with a line of its own, is found; another article is not', () => {
  const article = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of the article on heat pumps in Norway.`)
  const pages = [
    { text: article.join('\n\n') },
    { text: 'A different article about heat pumps in Norway and what they cost in 2026, by region.' },
    { text: `${article.join('\n\n')}\n\nRead more on our site.` },
    { text: '' },
  ]
  expect(sameTextPages(pages)).toEqual([2])
})

test('pages copied with edits are found as copies exactly when their joined-word shingles say so', () => {
  const word = fc.constantFrom('heat', 'pump', 'Norway', 'cost', '3.5', '1,000', 'don’t', 'Ünïcode', '计算', '—', 'the')
  const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('drop', 'swap', 'add'), word })
  const page = fc.record({
    // A page is new words, or a copy of an earlier page with a few edits: near the 80% line.
    copyOf: fc.option(fc.nat(), { nil: undefined }),
    words: fc.array(word, { maxLength: 40 }),
    edits: fc.array(edit, { maxLength: 6 }),
  })
  fc.assert(
    fc.property(fc.array(page, { maxLength: 8 }), (drafts) => {
      const texts: string[][] = []
      for (const draft of drafts) {
        const source = draft.copyOf !== undefined && texts.length > 0 ? texts[draft.copyOf % texts.length] : undefined
        const words = source ? [...source] : draft.words
        for (const { at, kind, word } of source ? draft.edits : []) {
          const position = at % (words.length + 1)
          if (kind === 'drop') words.splice(position, 1)
          else if (kind === 'swap') words.splice(position, 1, word)
          else words.splice(position, 0, word)
        }
        texts.push(words)
      }
      const pages = texts.map((words) => ({ text: words.join(' ') }))
      const expected = joinedShingleCopies(pages)
      expect(sameTextPages(pages)).toEqual(expected)
    }),
    { numRuns: RUNS },
  )
})

/** Every pair of pages' shared shingles, and each page's count: all the comparison reads. */
function overlaps(sets: Array<Set<unknown>>): number[][] {
  return sets.map((mine) => sets.map((theirs) => [...mine].filter((shingle) => theirs.has(shingle)).length))
}

test('shingle numbers overlap as the joined words do, words with spaces in them too', () => {
  // No tokenizer gives a word with a space, but if one did, "a b" + "c" and "a" + "b c" join alike.
  expect(
    shingleSets([
      ['a b', 'c', 'd', 'e', 'f'],
      ['a', 'b c', 'd', 'e', 'f'],
    ]),
  ).toEqual([[0], [0]])
  const word = fc.constantFrom('a', 'b', 'c', 'a b', 'b c', '')
  fc.assert(
    fc.property(fc.array(fc.array(word, { maxLength: 12 }), { maxLength: 6 }), (pages) => {
      const joined = pages.map((words) => {
        const set = new Set<string>()
        for (let i = 0; i + 5 <= words.length; i++) set.add(words.slice(i, i + 5).join(' '))
        return set
      })
      expect(overlaps(shingleSets(pages).map((set) => new Set(set)))).toEqual(overlaps(joined))
      expect(shingleSets(pages).map((set) => new Set(set).size)).toEqual(joined.map((set) => set.size))
    }),
    { numRuns: RUNS },
  )
})
