import fc from 'fast-check'
import { expect, test } from 'vitest'
import { latinWordTokens, segmentedWordTokens, wordTokens } from '#server/text/words.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)

/** The tokenizer as it was before its fast path: the segmenter over every text. */
function segmenterTokens(text: string): string[] {
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' })
  return [...segmenter.segment(text.normalize('NFKC').toLowerCase())]
    .filter((part) => part.isWordLike)
    .map((part) => part.segment)
}

test('tokens are NFKC-normalized, lower-cased words, and CJK text without spaces splits into words', () => {
  expect(wordTokens('Solid-State ＢＡＴＴＥＲＩＥＳ, 2027!')).toEqual(['solid', 'state', 'batteries', '2027'])
  expect(wordTokens('量子计算的进展')).toContain('计算')
})

test('numbers, abbreviations, contractions and hyphens split as the segmenter splits them', () => {
  const text = 'U.S. output rose 3.5% to 1,000 MW; it didn’t, e-mail a:b 1:2 snake_case _ __ a.1 x..y'
  expect(latinWordTokens(text.toLowerCase())).toEqual([
    'u.s',
    'output',
    'rose',
    '3.5',
    'to',
    '1,000',
    'mw',
    'it',
    'didn’t',
    'e',
    'mail',
    'a:b',
    '1',
    '2',
    'snake_case',
    '__',
    'a',
    '1',
    'x',
    'y',
  ])
  expect(latinWordTokens(text.toLowerCase())).toEqual(segmenterTokens(text))
})

// Characters of every word-break class the fast path reads, and some of those it leaves to the
// segmenter (combining marks, soft hyphens, joiners, other scripts, emoji, full-width forms).
const LATIN = [...'aZé1 9.,;:\'’‘"“”-–—_\t\n\r\u00a0']
const OTHERS = [...'\u0301\u00ad\u200d\u00b7\u2024\ufe52ＡＢ１．计算Ωאב😀…İß・'].concat(['\r\n'])

test('every character of the fast path, between letters, digits and underscores, breaks as in the segmenter', () => {
  const read = [
    ...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)),
    ...Array.from({ length: 0x250 - 0xa0 }, (_, i) => String.fromCharCode(0xa0 + i)),
    ...Array.from({ length: 0x70 }, (_, i) => String.fromCharCode(0x2000 + i)),
  ]
  for (const char of read) {
    for (const around of ['a', '1', '_', '.', ' ', 'é']) {
      for (const text of [
        char,
        `${char}${char}`,
        `${around}${char}`,
        `${char}${around}`,
        `${around}${char}${around}`,
      ]) {
        const fast = latinWordTokens(text)
        if (fast !== undefined) expect(fast, JSON.stringify(text)).toEqual(segmentedWordTokens(text))
      }
    }
  }
})

test('all short strings of letters, digits and punctuation split as in the segmenter', () => {
  const alphabet = [...'a1:.\'’,;_ -"é']
  let texts = ['']
  for (let length = 1; length <= 4; length++) {
    texts = texts.flatMap((text) => alphabet.map((char) => text + char))
    for (const text of texts) expect(latinWordTokens(text), JSON.stringify(text)).toEqual(segmentedWordTokens(text))
  }
})

test('wordTokens gives the segmenter’s tokens for any text', () => {
  const mixed = fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...LATIN) },
        { weight: 2, arbitrary: fc.constantFrom(...OTHERS) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constantFrom('Cells', 'COST', '3.5', 'U.S.', "don't", 'e-mail', '1,000') },
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''))
  fc.assert(
    fc.property(mixed, (text) => {
      expect(wordTokens(text)).toEqual(segmenterTokens(text))
    }),
    { numRuns: RUNS },
  )
})
