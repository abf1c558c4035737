import { expect, test } from 'vitest'
import { DIGEST_CHARACTERS, memoryDigest } from '#server/research/digest.ts'
import type { Fact, RunRecord } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'

function fact(index: number, text: string, extra: Partial<Fact> = {}): Fact {
  const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString()
  return { ...upgradeFact({ id: `f${index}`, text, sourceUrls: [], firstSeen: { runId: 'r', at } }), ...extra }
}

const run = (at: string, summary: string): RunRecord => ({
  runId: at,
  at,
  newFacts: 1,
  newSources: 1,
  urlsRead: 1,
  summary,
})

test('the digest is bounded however much memory holds, and carries what matters to the run first', () => {
  const filler = Array.from({ length: 2000 }, (_, i) =>
    fact(i, `Offshore wind auction round ${i} in the North Sea drew ${i + 3} bids from developers.`),
  )
  const related = fact(2001, 'Sodium-ion cells from HiNa passed 6000 cycles in a field trial.')
  const replaced = fact(2002, 'Sodium-ion cells cost $90/kWh.', { supersededBy: 'f2003' })
  const runs = [run('2026-11-16T10:00:00.000Z', 'Sodium cells got cheaper'), run('2026-11-09T10:00:00.000Z', 'Older')]
  const digest = memoryDigest({ facts: [...filler, related, replaced], runs }, 'sodium-ion cells cycles')
  const size = [...digest.recentRuns, ...digest.facts].reduce((sum, line) => sum + line.length + 3, 0)
  expect(size).toBeLessThanOrEqual(DIGEST_CHARACTERS)
  expect(digest.facts[0]).toBe(related.text)
  expect(digest.facts).not.toContain(replaced.text) // history, not what memory holds now
  expect(digest.facts.length).toBeLessThan(100)
  expect(digest.recentRuns).toEqual(['2026-11-16: Sodium cells got cheaper', '2026-11-09: Older'])
  // The same budget with 20 facts or 2,000: the prompt does not grow with memory.
  const small = memoryDigest({ facts: filler.slice(0, 20), runs: [] }, 'sodium-ion cells cycles')
  expect(small.facts).toHaveLength(20)
  expect(memoryDigest(undefined, 'anything')).toEqual({ recentRuns: [], facts: [] })
})
