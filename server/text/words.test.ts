import { expect, test } from 'vitest'
import { wordTokens } from '#server/text/words.ts'

test('tokens are NFKC-normalized, lower-cased words, and CJK text without spaces splits into words', () => {
  expect(wordTokens('Solid-State ＢＡＴＴＥＲＩＥＳ, 2027!')).toEqual(['solid', 'state', 'batteries', '2027'])
  expect(wordTokens('量子计算的进展')).toContain('计算')
})
