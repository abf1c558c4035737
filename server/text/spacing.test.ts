import fc from 'fast-check'
import { expect, test } from 'vitest'
import { isWhitespace, singleSpaced } from '#server/text/spacing.ts'

test('single spacing is the whitespace-run rewrite, on text with every kind of whitespace', () => {
  const piece = fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\u00a0',
    '\u2003',
    '\u2028',
    '\u3000',
    '\ufeff',
    'a',
    'Zé',
    '.',
    '计',
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('')
      expect(singleSpaced(text)).toBe(text.replace(/\s+/g, ' '))
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
  )
})

test('the whitespace the loop knows is exactly what \\s matches, every code unit', () => {
  for (let code = 0; code <= 0xffff; code++) {
    expect(isWhitespace(code), code.toString(16)).toBe(/\s/.test(String.fromCharCode(code)))
  }
  expect(isWhitespace(Number.NaN)).toBe(false)
})
