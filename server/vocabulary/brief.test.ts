import { expect, test } from 'vitest'
import { BriefSchema, displayBrief, StoredBriefSchema } from '#server/vocabulary/brief.ts'
import { budgetPhrase, readBudgetNumber } from '#server/vocabulary/budget.ts'

test('bidi controls are stripped from the topic, objective and focus as a brief is parsed', () => {
  const brief = BriefSchema.parse({
    topic: ' Tidal \u202Epower\u202C ',
    objective: 'Who \u2067builds\u2069 them',
    focus: 'cost,\u200F output\u061C',
  })
  expect(brief).toMatchObject({ topic: 'Tidal power', objective: 'Who builds them', focus: 'cost, output' })
  // Nothing left once they go: the same refusal as an empty topic.
  const empty = BriefSchema.safeParse({ topic: '\u202E\u202C', objective: '\u200E' })
  expect(empty.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['topic', 'topic is required'],
    ['objective', 'Too small: expected string to have >=1 characters'],
  ])
})

test('a brief stored before that is shown without them', () => {
  const stored = { ...BriefSchema.parse({ topic: 'x' }), topic: 'Old \u202Etides', objective: 'a\u2066b' }
  expect(displayBrief(stored)).toMatchObject({ topic: 'Old tides', objective: 'ab' })
  expect(displayBrief(stored)).not.toHaveProperty('focus')
})

test('budgets are optional; a brief without them (as every stored one is) has none', () => {
  const plain = BriefSchema.parse({ topic: 'x' })
  expect(plain).not.toHaveProperty('maxTokens')
  expect(plain).not.toHaveProperty('maxCostDollars')
  expect(BriefSchema.parse({ topic: 'x', maxTokens: 1_000, maxCostDollars: 0.01 })).toMatchObject({
    maxTokens: 1_000,
    maxCostDollars: 0.01,
  })
  // Cents whose binary value is no exact multiple of 0.01 are whole cents all the same.
  for (const maxCostDollars of [0.07, 0.29, 1.1, 12.34, 999.99, 1000]) {
    expect(
      BriefSchema.parse({ topic: 'x', maxTokens: 10_000_000, maxCostDollars }),
      String(maxCostDollars),
    ).toMatchObject({
      maxTokens: 10_000_000,
      maxCostDollars,
    })
  }
})

test('a budget out of range, fractional, or not a number is refused with the range named', () => {
  const refusal = (brief: Record<string, unknown>) =>
    BriefSchema.safeParse({ topic: 'x', ...brief }).error?.issues.map((issue) => [issue.path.join('.'), issue.message])
  const tokens = ['maxTokens', 'must be a whole number of tokens from 1,000 to 10,000,000']
  for (const maxTokens of [0, -5, 999, 1e12, 1500.5, 'abc', '50000', null, true]) {
    expect(refusal({ maxTokens }), String(maxTokens)).toEqual([tokens])
  }
  const cost = ['maxCostDollars', 'must be an amount in dollars from 0.01 to 1,000, in whole cents']
  for (const maxCostDollars of [0, -1, 0.001, 0.125, 1000.01, 1e12, 'abc', '0.50']) {
    expect(refusal({ maxCostDollars }), String(maxCostDollars)).toEqual([cost])
  }
})

test('a budget as typed reads as its number; anything else stays text for the schema to refuse', () => {
  expect(readBudgetNumber('50000')).toBe(50_000)
  expect(readBudgetNumber(' 50,000 ')).toBe(50_000)
  expect(readBudgetNumber('1 000 000')).toBe(1_000_000)
  expect(readBudgetNumber('$0.50')).toBe(0.5)
  expect(readBudgetNumber('.5')).toBe(0.5)
  for (const text of ['abc', '-5', '1e12', '0x10', '5.', '']) expect(readBudgetNumber(text)).toBe(text)
})

test('the budget reads as a phrase wherever a brief is described', () => {
  expect(budgetPhrase({})).toBeUndefined()
  expect(budgetPhrase({ maxTokens: 50_000 })).toBe('at most 50,000 tokens')
  expect(budgetPhrase({ maxCostDollars: 0.5 })).toBe('at most $0.50')
  expect(budgetPhrase({ maxTokens: 1_000_000, maxCostDollars: 1000 })).toBe('at most 1,000,000 tokens and $1,000.00')
})

test('a stored brief is read by its shape, not re-judged by the rules a new one meets', () => {
  // Stored under older rules: a framework since withdrawn, a cron and a topic today's checks refuse.
  const stored = {
    topic: 'x'.repeat(600),
    recurring: true,
    cron: '0 0 * * 1#5',
    frameworkId: 'withdrawn-framework',
    depth: 'quick',
    source: 'slack',
  }
  expect(BriefSchema.safeParse(stored).success).toBe(false)
  const read = StoredBriefSchema.parse(stored)
  expect(read).toMatchObject({ topic: 'x'.repeat(600), cron: '0 0 * * 1#5', frameworkId: 'withdrawn-framework' })
  // A field added since takes its default; one since removed is dropped.
  expect(StoredBriefSchema.parse({ topic: 'heat pumps', oldField: 1 })).toEqual({
    topic: 'heat pumps',
    depth: 'deep',
    timeframe: '30d',
    reportStyle: 'executive',
    recurring: false,
    source: 'api',
  })
  // What is not a brief's shape is refused.
  expect(StoredBriefSchema.safeParse({ topic: 7 }).success).toBe(false)
  expect(StoredBriefSchema.safeParse({ topic: 'heat pumps', depth: 'medium' }).success).toBe(false)
})

test('every brief a client sends is read back as it was stored', () => {
  const brief = BriefSchema.parse({
    topic: 'heat pumps',
    objective: 'prices',
    recurring: true,
    every: '1d',
    notify: 'always',
    maxTokens: 20_000,
    maxCostDollars: 1.5,
    webhookUrl: 'https://example.com/hook',
  })
  expect(StoredBriefSchema.parse(JSON.parse(JSON.stringify(brief)))).toEqual(brief)
})
