import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  PASSAGE_GAP,
  type PageTexts,
  pageTexts,
  prepareInIdle,
  readPassages,
  splitPassages,
} from '#server/research/passages.ts'

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

/** A memo that says which (size, text) it was asked for. */
function recording(texts: PageTexts = pageTexts()) {
  const asked: string[] = []
  return {
    asked,
    texts: {
      words: (text: string) => texts.words(text),
      passages: (text: string, size: number) => {
        asked.push(`${size}:${text}`)
        return texts.passages(text, size)
      },
    } satisfies PageTexts,
  }
}

test('a ceiling that shrinks the caps but not the passage size chooses again, without splitting or scoring again', () => {
  const pages = [0, 1, 2].map((i) => ({ url: `https://p${i}.test/`, text: filler(60, `page ${i}`).join('\n\n') }))
  // 3,000 a page (passages of 600) is over the ceiling: 1,333 a page, passages of 600 still.
  const { asked, texts } = recording()
  const bounded = readPassages(pages, 'local weather', 3000, 4000, texts)
  expect(bounded.charactersRead).toBeLessThanOrEqual(4000)
  expect(bounded.charactersRead).toBeGreaterThan(3000)
  expect(asked).toEqual(pages.map((page) => `600:${page.text}`))
  expect(bounded).toEqual(readPassages(pages, 'local weather', 1333))
})

test('pages prepared while a run waits are what the synthesis reads, at its passage size', async () => {
  const pages = [3, 9, 20].map((n, i) => ({
    url: `https://p${i}.test/`,
    text: filler(n, `page ${i}`).join('\n\n'),
    query: 'weather',
  }))
  for (const cap of [300, 3000]) {
    const { asked, texts } = recording()
    prepareInIdle(
      texts,
      pages.map((page) => page.text),
      [cap],
    )
    // A page a turn: none at once, all after as many turns as pages.
    expect(asked).toEqual([])
    for (let turn = 0; turn < pages.length + 1; turn++) await new Promise((resolve) => setImmediate(resolve))
    const prepared = [...asked]
    expect(prepared).toHaveLength(pages.length)
    asked.length = 0
    const reading = readPassages(pages, 'local weather', cap, undefined, texts)
    expect(asked).toEqual(prepared)
    expect(reading).toEqual(readPassages(pages, 'local weather', cap))
  }
})

test('pages can be prepared for two readings at once, a page a turn', async () => {
  const pages = [4, 12].map((n, i) => filler(n, `page ${i}`).join('\n\n'))
  const { asked, texts } = recording()
  prepareInIdle(texts, [...pages], [3000, 300, 3000])
  await new Promise((resolve) => setImmediate(resolve))
  expect(asked).toEqual([`600:${pages[0]}`, `150:${pages[0]}`])
  await new Promise((resolve) => setImmediate(resolve))
  expect(asked.slice(2)).toEqual([`600:${pages[1]}`, `150:${pages[1]}`])
})

test('a page text is worked out once per run, whatever reads it', () => {
  const texts = pageTexts()
  const text = filler(12, 'memo').join('\n\n')
  expect(texts.words(text)).toBe(texts.words(text))
  expect(texts.passages(text, 300)).toBe(texts.passages(text, 300))
  expect(texts.passages(text, 150)).not.toBe(texts.passages(text, 300))
  expect(texts.passages(text, 150).passages).toEqual(splitPassages(text, 150))
})

test("reading with a run's memo, shared by every reading of the run, reads as reading afresh", () => {
  const sentence = fc.constantFrom(
    'Sodium-ion cells cost $80/kWh.',
    'The weather was mild.',
    'Heat pumps sold well in Norway in 2025.',
    'Local sports results follow.',
    'Prices fell again.',
  )
  const page = fc.array(fc.array(sentence, { minLength: 1, maxLength: 6 }), { maxLength: 8 })
  fc.assert(
    fc.property(
      fc.array(page, { maxLength: 6 }),
      fc.array(
        fc.record({ cap: fc.integer({ min: 50, max: 3000 }), ceiling: fc.option(fc.integer({ min: 100, max: 6000 })) }),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
      (drafts, readings) => {
        const pages = drafts.map((paragraphs, i) => ({
          url: `https://p${i}.test/`,
          text: paragraphs.map((sentences) => sentences.join(' ')).join('\n\n'),
          query: i % 2 ? 'sodium prices' : undefined,
        }))
        const texts = pageTexts()
        for (const { cap, ceiling } of readings) {
          expect(readPassages(pages, 'sodium battery prices', cap, ceiling ?? undefined, texts)).toEqual(
            readPassages(pages, 'sodium battery prices', cap, ceiling ?? undefined),
          )
        }
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
  )
})
