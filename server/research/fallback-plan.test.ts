import { expect, test } from 'vitest'
import type { PlanInput } from '#server/providers/types.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    topic: 'solid-state batteries',
    focus: [],
    depth: 'deep',
    timeframe: 'the last 30 days',
    knownFacts: [],
    maxQueries: 6,
    ...overrides,
  }
}

test('the plan starts with the topic, then the objective, focus areas and framework hints, in that order', () => {
  const plan = fallbackPlan(
    planInput({
      objective: 'who is closest to mass production',
      focus: ['cost', 'safety'],
      framework: findFramework('porter-five-forces'),
      maxQueries: 6,
    }),
  )
  expect(plan.queries).toEqual([
    'solid-state batteries',
    'solid-state batteries who is closest to mass production',
    'solid-state batteries cost',
    'solid-state batteries safety',
    'solid-state batteries new entrants barriers',
    'solid-state batteries supplier power',
  ])
})

test('the same brief always gives the same plan', () => {
  const input = planInput({ focus: ['cost', 'supply chain'], framework: findFramework('pestle'), maxQueries: 5 })
  expect(fallbackPlan(input)).toEqual(fallbackPlan(structuredClone(input)))
})

test('queries are capped at maxQueries and never empty, even for a cap below one', () => {
  const input = planInput({ focus: ['a1', 'b2', 'c3', 'd4', 'e5'], framework: findFramework('pestle') })
  expect(fallbackPlan({ ...input, maxQueries: 3 }).queries).toHaveLength(3)
  expect(fallbackPlan({ ...input, maxQueries: 0 }).queries).toEqual(['solid-state batteries'])
  expect(fallbackPlan({ ...input, maxQueries: Number.NaN }).queries).toEqual(['solid-state batteries'])
})

test('a brief with nothing but a topic fills spare slots with generic angles', () => {
  const plan = fallbackPlan(planInput({ maxQueries: 3 }))
  expect(plan.queries).toEqual([
    'solid-state batteries',
    'solid-state batteries latest developments',
    'solid-state batteries data and statistics',
  ])
})

test('duplicates are dropped case-insensitively, and a focus the topic already says adds no query', () => {
  const plan = fallbackPlan(planInput({ focus: ['Cost', 'cost', 'COST ', 'Batteries'], maxQueries: 4 }))
  expect(plan.queries).toEqual([
    'solid-state batteries',
    'solid-state batteries Cost',
    'solid-state batteries latest developments',
    'solid-state batteries data and statistics',
  ])
})

test('a follow-up round searches what round one did not, not the same queries again', () => {
  const input = planInput({ focus: ['cost', 'safety', 'recycling'], maxQueries: 2 })
  const first = fallbackPlan(input)
  expect(first.queries).toEqual(['solid-state batteries', 'solid-state batteries cost'])

  const followUp = fallbackPlan({ ...input, followUp: { queries: first.queries, found: ['A page: what it says'] } })
  expect(followUp.queries).toEqual(['solid-state batteries safety', 'solid-state batteries recycling'])
  const asked = new Set(first.queries.map((query) => query.toLowerCase()))
  expect(followUp.queries.some((query) => asked.has(query.toLowerCase()))).toBe(false)
})

test('a follow-up counts a focus as searched when an earlier query held its words in any order', () => {
  const followUp = fallbackPlan(
    planInput({
      focus: ['supply chain', 'pricing'],
      maxQueries: 1,
      followUp: { queries: ['Chain of supply for solid-state batteries'], found: [] },
    }),
  )
  expect(followUp.queries).toEqual(['solid-state batteries pricing'])
})

test('a follow-up with every angle searched still returns a query', () => {
  const everything = fallbackPlan(planInput({ maxQueries: 20 }))
  const followUp = fallbackPlan(planInput({ maxQueries: 3, followUp: { queries: everything.queries, found: [] } }))
  expect(followUp.queries).toEqual(['solid-state batteries'])
})
