import fc from 'fast-check'
import { expect, test } from 'vitest'
import { normalizeForQuote, quoteText } from '#server/claims/quote.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)

/** normalizeForQuote as first written: every code point through NFKC and the three tests. */
function normalizedCodePointByCodePoint(raw: string): { text: string; origin: number[] } {
  const QUOTE_MARKS = /['‘’‚‛′"“”„‟″«»‹›＂＇`´]/u
  const DASHES = /[‐‑‒–—―−﹘﹣－⁃]/u
  const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/u
  let text = ''
  const origin: number[] = []
  let pendingSpace = false
  let offset = 0
  for (const char of raw) {
    const at = offset
    offset += char.length
    if (INVISIBLE.test(char)) continue
    for (const piece of char.normalize('NFKC').toLowerCase()) {
      if (/\s/u.test(piece)) {
        pendingSpace = text.length > 0
        continue
      }
      if (pendingSpace) {
        text += ' '
        origin.push(at)
        pendingSpace = false
      }
      const mapped = QUOTE_MARKS.test(piece) ? '"' : DASHES.test(piece) ? '-' : piece
      text += mapped
      for (let i = 0; i < mapped.length; i++) origin.push(at)
    }
  }
  return { text, origin }
}

/** Page-like text: ASCII words and punctuation, whitespace of every kind, marks, dashes, and the rest. */
const pageText = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...'aZq09 .,;:!?$%()[]<>&*#_-+=/\\|~^@\t\n\r\v\f') },
      { weight: 3, arbitrary: fc.constantFrom(...'\'"`´‘’‚‛′“”„‟″«»‹›＂＇‐‑‒–—―−﹘﹣－⁃') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...'\u00a0\u2003\u2028\u3000\u00ad\u200b\u200d\u2060\ufeff…½ﬁＡé\u0301İß😀计﷽'),
      },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udc00', 'Cells cost $80/kWh', '“Quoted,” he said —') },
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''))

test('normalizeForQuote gives the text and origins of normalising code point by code point', () => {
  // Every ASCII character, and each in a run of others.
  for (let code = 0; code < 0x80; code++) {
    const char = String.fromCharCode(code)
    for (const text of [char, `A${char}b`, ` ${char}${char} `]) {
      expect(normalizeForQuote(text)).toEqual(normalizedCodePointByCodePoint(text))
    }
  }
  // Text that grows when normalised ("…" is "...", "﷽" eighteen characters).
  for (const text of ['…'.repeat(50), '﷽', `a${'﷽'.repeat(20)} b`, '']) {
    expect(normalizeForQuote(text)).toEqual(normalizedCodePointByCodePoint(text))
  }
  fc.assert(
    fc.property(pageText, (text) => {
      expect(normalizeForQuote(text)).toEqual(normalizedCodePointByCodePoint(text))
      expect(quoteText(text)).toBe(normalizedCodePointByCodePoint(text).text)
    }),
    { numRuns: RUNS },
  )
})
