import { expect, test } from 'vitest'
import { restatingPages } from '#server/research/novelty.ts'
import type { Fact } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'

const at = '2026-11-01T10:00:00.000Z'
function fact(text: string, quote = text): Fact {
  return { ...upgradeFact({ id: text, text, sourceUrls: [], firstSeen: { runId: 'r', at } }), quote }
}
const source = (id: number, text: string, site = `s${id}`) => ({
  id,
  url: `https://${site}.test/${id}`,
  title: 't',
  publishedDate: null,
  text,
})
const restated = (pages: ReturnType<typeof source>[], memory: Fact[]) => {
  const found = restatingPages(pages, memory)
  return {
    pages: [...found.pages],
    quotes: found.findings.map((finding) => [finding.quote, finding.sourceIds]),
    claims: found.findings.map((finding) => finding.text),
  }
}

const memory = [
  fact('Cells cost $80/kWh in 2026.', 'Sodium-ion cells now cost $80/kWh, according to the annual survey.'),
  fact('The plant opened in March 2026 near Vasteras, Sweden.'),
  fact('The county council approved a £40m grant for the harbour wall in 2025.'),
]

test('a page that only says again what memory quoted is found out; one new sentence sends it to the model', () => {
  expect(
    restated(
      [
        source(1, 'Sodium-ion cells now cost $80/kWh, according to the annual survey.\n\nBy staff.'),
        source(2, 'The plant opened in March 2026 near Vasteras, Sweden'),
        source(3, 'The plant opened in March 2026 near Vasteras, Sweden. It employs 300 people today.'),
      ],
      memory,
    ),
  ).toMatchObject({
    pages: [1, 2],
    quotes: [
      ['Sodium-ion cells now cost $80/kWh, according to the annual survey.', [1]],
      ['The plant opened in March 2026 near Vasteras, Sweden', [2]],
    ],
  })
  // A changed figure is not a restatement.
  expect(
    restated([source(1, 'Sodium-ion cells now cost $70/kWh, according to the annual survey.')], memory).pages,
  ).toEqual([])
  // A replaced fact is no longer what memory holds.
  const replaced = [{ ...fact('The plant opened in March 2026 near Vasteras, Sweden.'), supersededBy: 'x' }]
  expect(restated([source(1, 'The plant opened in March 2026 near Vasteras, Sweden.')], replaced).pages).toEqual([])
  expect(restated([], memory).pages).toEqual([])
})

test('a restatement in other words is known only when it is sure: the same figures and dates, stance and most words', () => {
  const brief = (text: string) =>
    restated([source(1, `${text}\n\nWe use cookies to improve your experience. Subscribe to our newsletter.`)], memory)
  // The grant again, in another order and voice, beside the site's furniture: claimed in memory's
  // words, quoted in the page's.
  expect(brief('In 2025 a £40m grant for the harbour wall was approved by the county council.')).toEqual({
    pages: [1],
    quotes: [['In 2025 a £40m grant for the harbour wall was approved by the county council.', [1]]],
    claims: [memory[2]?.text],
  })
  // Another figure, another year, the opposite stance, or a sentence that states no figure: the model reads it.
  expect(brief('In 2025 a £45m grant for the harbour wall was approved by the county council.').pages).toEqual([])
  expect(brief('In 2026 a £40m grant for the harbour wall was approved by the county council.').pages).toEqual([])
  expect(brief('In 2025 a £40m grant for the harbour wall was rejected by the county council.').pages).toEqual([])
  expect(brief('In 2025 a £40m grant for the harbour wall was not approved by the county council.').pages).toEqual([])
  expect(brief('The council has since withdrawn the grant for the harbour wall.').pages).toEqual([])
  // The same figure about something else is no restatement.
  expect(brief('The ferry operator spent £40m on two new boats in 2025.').pages).toEqual([])
})

test('what a site says to its reader is furniture, but a sentence that names, decides or negates is news', () => {
  const page = (extra: string) =>
    restated([source(1, `The plant opened in March 2026 near Vasteras, Sweden.\n\n${extra}`)], memory).pages
  expect(page('By continuing you accept our cookie policy. Continue reading below the advertisement.')).toEqual([1])
  expect(page('Share this story with a friend. Most read: a recipe for sourdough.')).toEqual([1])
  // A story's own sentences, with no figure in them, are news until memory is shown to hold them.
  expect(page('Braymoor Civil will run the site.')).toEqual([])
  expect(page('It was shut down last week.')).toEqual([])
  expect(page('The works will not go ahead.')).toEqual([])
  expect(page('“We have pulled out,” the company said.')).toEqual([])
})

test('what two pages of one site print alike is the site furniture, whatever words it uses', () => {
  const banner = 'Comments are closed for this article.'
  const pages = [
    source(1, `The plant opened in March 2026 near Vasteras, Sweden.\n\n${banner}`, 'courier'),
    source(2, `Sodium-ion cells now cost $80/kWh, according to the annual survey.\n\n${banner}`, 'courier'),
  ]
  expect(restated(pages, memory).pages).toEqual([1, 2])
  // On one page of a site it may be the story's: "closed" takes a stance.
  expect(restated([pages[0] as ReturnType<typeof source>], memory).pages).toEqual([])
})
