import { expect, test } from 'vitest'
import type { Mistake } from '#bench/quality/score.ts'
import { causeOf } from '#bench/quality/summary.ts'

/** A new fact no claim showed. */
const notShown: Mistake = {
  expected: 'new',
  got: 'not shown',
  version: 'd/fine@0',
  claim: 'The regulator fined the company £950,000.',
  memory: [],
}

test('a faithful claim not shown is put down to the check that dropped it, as far as the run says', () => {
  const mistake: Mistake = { ...notShown, trace: { claims: [{ sloppy: [] }] } }
  const integrity = { claims: 20, shown: 12, droppedUnsupported: 0, recited: 0 }
  expect(causeOf(mistake, 'oracle', { ...integrity, offTopic: 8 })).toBe(
    'a faithful claim was dropped by the topic check',
  )
  expect(causeOf(mistake, 'oracle', { ...integrity, droppedUnsupported: 2, offTopic: 6 })).toBe(
    'a faithful claim was dropped by the quote check or the topic check',
  )
  expect(causeOf(mistake, 'oracle', { ...integrity, droppedUnsupported: 8, offTopic: 0 })).toBe(
    'a faithful claim was dropped by the quote check',
  )
})

test('a fact the extractive path did not show is put down to its page turned away, or to the sentence passed over', () => {
  expect(causeOf({ ...notShown, pageShown: false }, 'extractive')).toMatch(/^nothing of its page was shown/)
  expect(causeOf({ ...notShown, pageShown: true }, 'extractive')).toMatch(/^its page gave other findings/)
})
