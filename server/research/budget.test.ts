import { expect, test } from 'vitest'
import {
  budgetPassed,
  CHARACTERS_PER_TOKEN,
  charactersPerToken,
  dollarsOf,
  readableCharacters,
  searchAllowed,
  spentOf,
  tokensLeft,
} from '#server/research/budget.ts'

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

test('characters per token are measured on the pages: about four in English, near one in Chinese', () => {
  const english = 'Geothermal plants in Kenya added 100 MW in 2026, the ministry said. '.repeat(20)
  const chinese = '地热发电站在肯尼亚新增了一百兆瓦的装机容量，能源部表示钻探工作仍在继续。'.repeat(20)
  expect(charactersPerToken([english])).toBeGreaterThan(3)
  expect(charactersPerToken([chinese])).toBeLessThan(1.5)
  expect(charactersPerToken([])).toBe(CHARACTERS_PER_TOKEN)
  // What the budget lets a synthesis read follows: a Chinese page gives about a third of the characters.
  const left = 20_000
  expect(readableCharacters(left, 6000, 1500, charactersPerToken([chinese]))).toBeLessThan(
    readableCharacters(left, 6000, 1500, charactersPerToken([english])) / 2,
  )
})

test('a budget is passed when the tokens or the dollars spent exceed it, not when they meet it', () => {
  const spent = { inputTokens: 9000, outputTokens: 1000, searchDollars: 0.02 }
  expect(budgetPassed({ maxTokens: 10_000 }, spent)).toBe(false)
  expect(budgetPassed({ maxTokens: 9_999 }, spent)).toBe(true)
  expect(budgetPassed({ maxCostDollars: 0.01 }, spent)).toBe(true)
  expect(budgetPassed({}, spent)).toBe(false)
})
