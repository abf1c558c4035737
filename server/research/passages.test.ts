import { expect, test } from 'vitest'
import { PASSAGE_GAP, readPassages, splitPassages } from '#server/research/passages.ts'

const filler = (n: number, word: string) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i} of the ${word} page talks about the weather and local sports.`)

test('a page gives its passages that matter to the brief, in page order, up to the cap, however long it is', () => {
  const relevant = 'Sodium-ion cells now cost $80/kWh, down from $90/kWh a year ago, according to the battery survey.'
  const text = [...filler(20, 'long'), relevant, ...filler(20, 'long')].join('\n\n')
  const { pages, charactersRead, charactersAvailable } = readPassages(
    [{ url: 'https://a.test/', text, query: 'sodium-ion cell prices' }],
    'sodium-ion batteries cost',
    300,
  )
  expect(pages).toHaveLength(1)
  expect(pages[0]?.text).toContain(relevant)
  expect(pages[0]?.text.length).toBeLessThanOrEqual(300)
  expect(charactersRead).toBe(pages[0]?.text.length)
  expect(charactersAvailable).toBe(text.length)
  // The opening is not what was read: the relevant paragraph sits in the middle.
  expect(pages[0]?.text.startsWith('Paragraph 0')).toBe(false)
})

test('passages that are not next to each other are marked apart; a short page is read whole', () => {
  const short = 'Heat pumps outsold gas boilers in Norway.\n\nThe grid operator expects more.'
  expect(readPassages([{ url: 'https://b.test/', text: short }], 'heat pumps', 3000).pages[0]?.text).toBe(short)
  const parts = [
    'Heat pump sales in Norway rose 12% in 2026.',
    ...filler(12, 'middle'),
    'Heat pump installers in Norway report waiting lists of 8 weeks.',
  ]
  const text = parts.join('\n\n')
  const read = readPassages([{ url: 'https://c.test/', text }], 'heat pump Norway installers sales', 200).pages[0]?.text
  expect(read).toContain(PASSAGE_GAP.trim())
  expect(read?.indexOf('sales in Norway rose')).toBeLessThan(read?.indexOf('waiting lists') ?? 0)
})

test('a page carrying the text of an earlier one is read once', () => {
  const article = filler(10, 'syndicated').join('\n\n')
  const reading = readPassages(
    [
      { url: 'https://a.test/', text: article },
      { url: 'https://b.test/', text: 'A different article about heat pumps in Norway and their prices in 2026.' },
      { url: 'https://mirror.test/', text: `${article}\n\nRead more on our site.` },
    ],
    'heat pumps',
    3000,
  )
  expect(reading.duplicates).toEqual([2])
  expect(reading.pages.map((page) => page.index)).toEqual([0, 1])
})

test('passages stay under their size, and no text is lost in splitting', () => {
  const text = [...filler(30, 'split'), 'One very long paragraph. '.repeat(60).trim()].join('\n\n')
  const passages = splitPassages(text)
  expect(passages.every((passage) => passage.length <= 700)).toBe(true)
  expect(passages.join(' ').replace(/\s+/g, ' ')).toBe(
    [...filler(30, 'split'), 'One very long paragraph. '.repeat(60).trim()].join(' '),
  )
})

test('a run that finds very many pages reads less of each, within its ceiling', () => {
  const pages = Array.from({ length: 40 }, (_, i) => ({
    url: `https://p${i}.test/`,
    text: Array.from(
      { length: 12 },
      (_, j) => `Heat pump report ${i} part ${j} on installs and prices in Norway.`,
    ).join('\n\n'),
  }))
  const open = readPassages(pages, 'heat pump prices Norway', 3000)
  const bounded = readPassages(pages, 'heat pump prices Norway', 3000, 20_000)
  expect(open.charactersRead).toBeGreaterThan(20_000)
  expect(bounded.charactersRead).toBeLessThanOrEqual(20_000)
  expect(bounded.pages).toHaveLength(40) // every page still read, each a little
})
