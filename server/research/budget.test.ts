import { expect, test } from 'vitest'
import { dollarsOf, readableCharacters, searchAllowed, spentOf, tokensLeft } from '#server/research/budget.ts'

const spent = spentOf(
  [
    { inputTokens: 1000, outputTokens: 200 },
    { inputTokens: 3000, outputTokens: 800 },
  ],
  0.03,
)

test('what is left of a token budget, a dollar budget, or both', () => {
  expect(spent).toEqual({ inputTokens: 4000, outputTokens: 1000, searchDollars: 0.03 })
  expect(tokensLeft({}, spent)).toBe(Number.POSITIVE_INFINITY)
  expect(tokensLeft({ maxTokens: 8000 }, spent)).toBe(3000)
  expect(tokensLeft({ maxTokens: 4000 }, spent)).toBe(0) // spent past it: nothing left, never negative
  // Without prices, dollars limit only the searches.
  expect(tokensLeft({ maxCostDollars: 0.05 }, spent)).toBe(Number.POSITIVE_INFINITY)
  const prices = { inputPerMillion: 2, outputPerMillion: 8 }
  expect(dollarsOf(spent, prices)).toBeCloseTo(0.03 + 0.008 + 0.008, 6)
  // $0.1 - $0.046 = $0.054 left, at the dearer $8 a million: 6,750 tokens.
  expect(tokensLeft({ maxCostDollars: 0.1, prices }, spent)).toBe(6750)
  expect(tokensLeft({ maxTokens: 6000, maxCostDollars: 0.1, prices }, spent)).toBe(1000)
  expect(searchAllowed({ maxCostDollars: 0.05 }, spent)).toBe(true)
  expect(searchAllowed({ maxCostDollars: 0.03 }, spent)).toBe(false)
  expect(searchAllowed({ maxCostDollars: 0.05, prices }, spent)).toBe(true)
  expect(searchAllowed({ maxCostDollars: 0.04, prices }, spent)).toBe(false)
})

test('the pages a synthesis may read shrink with what is left, after its answer and a reserve', () => {
  expect(readableCharacters(Number.POSITIVE_INFINITY, 6000, 2000)).toBe(Number.POSITIVE_INFINITY)
  // 20,000 left: 6,000 answer, 2,000 prompt, 3,000 reserve -> 9,000 tokens of pages.
  expect(readableCharacters(20_000, 6000, 2000)).toBe(36_000)
  expect(readableCharacters(5000, 6000, 2000)).toBe(0)
})
