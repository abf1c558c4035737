import { expect, test } from 'vitest'
import { upgradeFact } from '#server/memory/facts.ts'
import type { Fact } from '#server/memory/types.ts'
import { restatedOnly } from '#server/research/novelty.ts'

const at = '2026-11-01T10:00:00.000Z'
function fact(text: string, quote = text): Fact {
  return { ...upgradeFact({ id: text, text, sourceUrls: [], firstSeen: { runId: 'r', at } }), quote }
}
const source = (id: number, text: string) => ({
  id,
  url: `https://s${id}.test/`,
  title: 't',
  publishedDate: null,
  text,
})

test('pages that only restate what memory quoted are found out; one new sentence is enough to synthesize', () => {
  const memory = [
    fact('Cells cost $80/kWh in 2026.', 'Sodium-ion cells now cost $80/kWh, according to the annual survey.'),
    fact('The plant opened in March 2026 near Vasteras, Sweden.'),
  ]
  const restated = restatedOnly(
    [
      source(1, 'Sodium-ion cells now cost $80/kWh, according to the annual survey.\n\nBy staff.'),
      source(2, 'The plant opened in March 2026 near Vasteras, Sweden'),
    ],
    memory,
  )
  expect(restated?.map((finding) => [finding.quote, finding.sourceIds])).toEqual([
    ['Sodium-ion cells now cost $80/kWh, according to the annual survey.', [1]],
    ['The plant opened in March 2026 near Vasteras, Sweden', [2]],
  ])
  // A changed figure is not a restatement, nor is anything memory does not hold word for word.
  expect(restatedOnly([source(1, 'Sodium-ion cells now cost $70/kWh, according to the annual survey.')], memory)).toBe(
    undefined,
  )
  expect(
    restatedOnly(
      [source(1, 'The plant opened in March 2026 near Vasteras, Sweden. It employs 300 people today.')],
      memory,
    ),
  ).toBe(undefined)
  // A replaced fact is no longer what memory holds.
  const replaced = [{ ...fact('The plant opened in March 2026 near Vasteras, Sweden.'), supersededBy: 'x' }]
  expect(restatedOnly([source(1, 'The plant opened in March 2026 near Vasteras, Sweden.')], replaced)).toBe(undefined)
  expect(restatedOnly([], memory)).toBe(undefined)
})
