import { expect, test } from 'vitest'
import { buildRegistry } from '#bench/quality/registry.ts'
import { addScores, precision, type RunInput, recall, scoreRun, truthOf } from '#bench/quality/score.ts'
import type { Fact, Page } from '#bench/quality/web.ts'

// A tiny web: a price that changed, a permit that flipped, jobs restated in other words, and two new facts.
const facts: Fact[] = [
  {
    key: 't/price',
    kind: 'figure',
    versions: [
      { label: '80', positive: true, wordings: ['Cells cost $80/kWh.', 'A cell sells for 80 dollars per kWh.'] },
      { label: '72', positive: true, wordings: ['Cells cost $72/kWh.', 'A cell sells for 72 dollars per kWh.'] },
    ],
  },
  {
    key: 't/permit',
    kind: 'polarity',
    versions: [
      { label: 'yes', positive: true, wordings: ['Regulators approved the permit.'] },
      { label: 'no', positive: false, wordings: ['Regulators rejected the permit.'] },
    ],
  },
  {
    key: 't/jobs',
    kind: 'figure',
    versions: [
      { label: '900', positive: true, wordings: ['The plant has 900 jobs.', 'Some 900 jobs are at the plant.'] },
    ],
  },
  {
    key: 't/plant',
    kind: 'polarity',
    versions: [{ label: 'yes', positive: true, wordings: ['The plant opened in Reno.'] }],
  },
  {
    key: 't/staff',
    kind: 'figure',
    versions: [{ label: '40', positive: true, wordings: ['The lab employs 40 chemists.'] }],
  },
]
const web = {
  facts: new Map(facts.map((fact) => [fact.key, fact])),
  registry: buildRegistry(facts, ['Subscribe now.']),
}

const pageA: Page = {
  url: 'https://a.example/1',
  title: 'A',
  text: 'Subscribe now. Cells cost $72/kWh.\n\nRegulators rejected the permit.',
  statements: [
    { fact: 't/price', version: 1, text: 'Cells cost $72/kWh.' },
    { fact: 't/permit', version: 1, text: 'Regulators rejected the permit.' },
  ],
}
const pageB: Page = {
  url: 'https://b.example/2',
  title: 'B',
  text: 'Some 900 jobs are at the plant. The plant opened in Reno. The lab employs 40 chemists.',
  statements: [
    { fact: 't/jobs', version: 0, text: 'Some 900 jobs are at the plant.' },
    { fact: 't/plant', version: 0, text: 'The plant opened in Reno.' },
    { fact: 't/staff', version: 0, text: 'The lab employs 40 chemists.' },
  ],
}
const pages = new Map([pageA, pageB].map((page) => [page.url, page]))

function input(overrides: Partial<RunInput> = {}): RunInput {
  return {
    domain: 't',
    readPages: [pageA, pageB],
    held: new Map([
      ['t/price', new Set([0])],
      ['t/permit', new Set([0])],
      ['t/jobs', new Set([0])],
    ]),
    heldTexts: new Map([['t/jobs', ['The plant has 900 jobs.']]]),
    shown: [],
    confirmedInMemory: new Set(),
    pageText: (url) => pages.get(url)?.text,
    ...overrides,
  }
}

test('the truth of a fact version is relative to what memory held', () => {
  const [price, permit] = facts as [Fact, Fact]
  expect(truthOf(price, 1, undefined)).toBe('new')
  expect(truthOf(price, 1, new Set())).toBe('new')
  expect(truthOf(price, 1, new Set([1]))).toBe('confirmed')
  expect(truthOf(price, 1, new Set([0]))).toBe('updated')
  expect(truthOf(permit, 1, new Set([0]))).toBe('contradicted')
  // Both versions held (an update the engine stored as new): the one seen is confirmed.
  expect(truthOf(permit, 1, new Set([0, 1]))).toBe('confirmed')
})

test('precision counts shown claims, recall counts fact versions on the pages read', () => {
  const score = scoreRun(
    input({
      shown: [
        // Right: the changed price, cited to the page that holds it, quoted word for word (case aside).
        {
          class: 'updated',
          text: 'A cell sells for 72 dollars per kWh.',
          quote: 'cells cost $72/KWH.',
          urls: [pageA.url],
        },
        // Wrong: the permit flipped, reported as new.
        {
          class: 'new',
          text: 'Regulators rejected the permit.',
          quote: 'Regulators rejected the permit.',
          urls: [pageA.url],
        },
        // Wrong: the jobs fact memory held, in other words, reported as new.
        {
          class: 'new',
          text: 'Some 900 jobs are at the plant.',
          quote: 'Some 900 jobs are at the plant.',
          urls: [pageB.url],
        },
        // Right, but one of the pages it cites does not hold its quote.
        {
          class: 'new',
          text: 'The plant opened in Reno.',
          quote: 'The plant opened in Reno.',
          urls: [pageB.url, pageA.url],
        },
        // Boilerplate shown as a finding.
        { class: 'new', text: 'Subscribe now.', quote: 'Subscribe now.', urls: [pageA.url] },
      ],
    }),
    web,
  )
  expect(score.classes.new).toEqual({ reported: 4, correct: 1, truth: 2, found: 1, classified: 1 })
  expect(score.classes.updated).toEqual({ reported: 1, correct: 1, truth: 1, found: 1, classified: 1 })
  expect(score.classes.contradicted).toEqual({ reported: 0, correct: 0, truth: 1, found: 0, classified: 1 })
  expect(precision(score.classes.new)).toBe(0.25)
  expect(recall(score.classes.new)).toBe(0.5)
  expect(precision(score.classes.contradicted)).toBeNaN()
  expect(recall(score.classes.contradicted)).toBe(0)
  expect({ confirmedTruth: score.confirmedTruth, rewordedAsNew: score.rewordedAsNew }).toEqual({
    confirmedTruth: 1,
    rewordedAsNew: 1,
  })
  expect({ shown: score.shown, unsupported: score.unsupportedShown, noFact: score.noFact }).toEqual({
    shown: 5,
    unsupported: 1,
    noFact: 1,
  })
  expect(score.confusion).toEqual({
    updated: { updated: 1 },
    contradicted: { new: 1 },
    confirmed: { new: 1 },
    new: { new: 1, 'not shown': 1 },
  })
  expect(score.mistakes.map((mistake) => `${mistake.version} ${mistake.expected} -> ${mistake.got}`).sort()).toEqual([
    ' no fact -> new',
    't/jobs@0 confirmed -> new',
    't/permit@1 contradicted -> new',
    't/staff@0 new -> not shown',
  ])
  expect(score.mistakes.find((mistake) => mistake.version === 't/jobs@0')?.memory).toEqual(['The plant has 900 jobs.'])
  // The staff figure's page gave the report another finding (the plant's opening): passed over, not turned away.
  expect(score.mistakes.find((mistake) => mistake.version === 't/staff@0')?.pageShown).toBe(true)
  const unused = scoreRun(input({ shown: [] }), web)
  expect(unused.mistakes.find((mistake) => mistake.version === 't/staff@0')?.pageShown).toBe(false)
})

test('a fact the run confirmed in memory is not shown, and that is right', () => {
  const score = scoreRun(input({ confirmedInMemory: new Set(['t/jobs@0', 't/price@1']) }), web)
  expect(score.confusion.confirmed).toEqual({ confirmed: 1 })
  // A changed figure that memory merely confirmed was missed, and says so.
  expect(score.confusion.updated).toEqual({ confirmed: 1 })
  expect(score.classes.updated).toEqual({ reported: 0, correct: 0, truth: 1, found: 0, classified: 1 })
  expect(score.rewordedAsNew).toBe(0)
})

test('run scores add up', () => {
  const one = scoreRun(
    input({ shown: [{ class: 'new', text: 'x', quote: 'The plant opened in Reno.', urls: [pageB.url] }] }),
    web,
  )
  const total = addScores([one, one])
  expect(total.classes.new).toEqual({ reported: 2, correct: 2, truth: 4, found: 2, classified: 2 })
  expect(total.confusion.new).toEqual({ new: 2, 'not shown': 2 })
  expect(total.mistakes).toHaveLength(2 * one.mistakes.length)
})

test("a claim of another topic's fact (a stray page) is counted apart, and no part of this topic's truth", () => {
  const stray: Page = {
    url: 'https://c.example/3',
    title: 'C',
    text: 'The mine produced 12 tonnes.',
    statements: [{ fact: 'other/mine', version: 0, text: 'The mine produced 12 tonnes.' }],
  }
  const mine: Fact = {
    key: 'other/mine',
    kind: 'figure',
    versions: [{ label: '12', positive: true, wordings: ['The mine produced 12 tonnes.'] }],
  }
  const both = { facts: new Map([...web.facts, [mine.key, mine]]), registry: buildRegistry([...facts, mine], []) }
  const claim = { class: 'new' as const, text: stray.text, quote: stray.text, urls: [stray.url] }
  const base = scoreRun(input(), both)
  const score = scoreRun(
    input({
      readPages: [pageA, pageB, stray],
      shown: [claim],
      pageText: (url) => (url === stray.url ? stray.text : pages.get(url)?.text),
    }),
    both,
  )
  expect(score.offTopicShown).toBe(1)
  expect(score.classes.new).toEqual(base.classes.new)
  expect(score.noFact).toBe(0)
  expect(score.mistakes.filter((mistake) => mistake.expected === 'another topic')).toHaveLength(1)
  expect(addScores([score, score]).offTopicShown).toBe(2)
})
