import { expect, test } from 'vitest'
import { type Fact, PAGE, type Source, type TopicMemory } from '#server/topics/contract.ts'
import { exportTopicMarkdown } from '#server/topics/export.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { topicView } from '#server/topics/views.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'

const FIRST_SEEN = { runId: 'run-1', at: '2026-11-01T10:00:00.000Z' }

function fact(text: string, sourceUrls: string[]): Fact {
  return upgradeFact({ id: text, text, sourceUrls, firstSeen: FIRST_SEEN })
}

function source(url: string, title: string, publishedDate: string | null = null): Source {
  return { url, title, publishedDate, firstSeen: FIRST_SEEN }
}

function topicMemory(partial: Partial<TopicMemory>): TopicMemory {
  return {
    topicId: 'topic-1',
    topic: 'Solid-state batteries',
    facts: [],
    sources: [],
    ledger: [],
    runs: [],
    runCount: 2,
    urlsIndexed: 14,
    factsStored: 0,
    lastRunAt: new Date('2026-11-02T10:00:00.000Z'),
    expiresAt: new Date('2026-12-02T10:00:00.000Z'),
    ...partial,
  }
}

const memory = topicMemory({
  facts: [
    fact('Toyota plans solid-state cars for 2027', ['https://c.example/toyota', 'https://a.example/overview']),
    fact('Energy density reached 500 Wh/kg', ['https://a.example/overview']),
    fact('Costs are still high', []),
  ],
  sources: [
    source('https://a.example/overview', 'Overview [2026 edition]', '2026-10-05T00:00:00Z'),
    source('https://b.example/uncited', 'Never cited'),
    source('https://c.example/toyota', 'Toyota news'),
  ],
  runs: [
    {
      runId: 'run-2',
      at: '2026-11-02T10:00:00.000Z',
      newFacts: 1,
      newSources: 0,
      urlsRead: 4,
      summary: 'Found targets',
    },
    { runId: 'run-1', at: '2026-11-01T10:00:00.000Z', newFacts: 2, newSources: 3, urlsRead: 10 },
  ],
})

test('the export has the title, stats and all sections', () => {
  const markdown = exported(memory)
  expect(markdown.startsWith('# Solid-state batteries\n\n')).toBe(true)
  expect(markdown).toContain('Runs: 2 · Facts: 3 · URLs read: 14 · Last run: 2026-11-02 · Memory expires: 2026-12-02')
  for (const heading of ['## Facts', '## Sources', '## Run history']) expect(markdown).toContain(`\n${heading}\n`)
  expect(markdown).toContain('- 2026-11-02 10:00 UTC — 1 new fact, 0 new sources, 4 URLs read: Found targets')
  expect(markdown).toContain('- 2026-11-01 10:00 UTC — 2 new facts, 3 new sources, 10 URLs read\n')
})

test('every citation marker points at the numbered source the fact cites', () => {
  const markdown = exported(memory)
  const sourceByNumber = new Map(
    [...markdown.matchAll(/^- \[(\d+)\] .*<(https:[^>]+)>/gm)].map((match) => [match[1], match[2]]),
  )
  // Numbered by first citation, then the uncited one.
  expect([...sourceByNumber.values()]).toEqual([
    'https://c.example/toyota',
    'https://a.example/overview',
    'https://b.example/uncited',
  ])
  for (const [index, { sourceUrls }] of memory.facts.entries()) {
    const line = markdown.split('\n').find((candidate) => candidate.startsWith(`${index + 1}. `)) ?? ''
    const cited = [...(line.match(/(\[\d+\])+$/)?.[0] ?? '').matchAll(/\[(\d+)\]/g)].map((m) =>
      sourceByNumber.get(m[1]),
    )
    expect(cited.sort()).toEqual([...sourceUrls].sort())
  }
})

test('titles and fact text cannot break the document', () => {
  const markdown = exported(
    topicMemory({
      topic: '# C# tips #',
      facts: [fact('# Not a heading\nand [not](a link) *really*', ['https://a.example/x'])],
      sources: [source('https://a.example/x', 'Report [draft] <v2>', '2026-01-05')],
    }),
  )
  expect(markdown).toContain('# \\# C# tips \\#\n')
  expect(markdown).toContain('1. \\# Not a heading and \\[not\\] (a link) \\*really\\* [1]\n')
  expect(markdown).toContain('- [1] Report \\[draft\\] \\<v2\\> — <https://a.example/x> (2026-01-05)\n')
})

test('nested links, bare URLs, addresses and bidi controls in memory link nowhere in the export', () => {
  const markdown = exported(
    topicMemory({
      topic: 'Tidal \u202Epower\u202C',
      facts: [
        fact(
          'Output doubled [[label](https://a.test)](https://evil.test/phish) [[[x](https://e1.test)](https://e2.test)](https://e3.test)',
          ['https://a.example/x'],
        ),
        fact('Write to a@evil.test or see www.evil.test and <https://evil.test/auto>', []),
      ],
      sources: [source('https://a.example/x', 'Mirror at https://evil.test/mirror')],
      runs: [
        {
          runId: 'r',
          at: '2026-11-01T10:00:00.000Z',
          newFacts: 1,
          newSources: 1,
          urlsRead: 1,
          summary: 'https://evil.test/run',
        },
      ],
    }),
  )
  expect(unexpectedTargets(markdown, ['https://a.example/x'])).toEqual([])
  expect(markdown).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/)
  expect(markdown).toContain('# Tidal power\n')
  expect(markdown).toContain('1. Output doubled label x [1]\n')
})

test('the same memory always exports the same text', () => {
  expect(exported(memory)).toBe(exported(structuredClone(memory)))
})

test('an empty memory still exports every section', () => {
  const markdown = exported(topicMemory({ runCount: 0, urlsIndexed: 0 }))
  expect(markdown).toContain('## Facts\n\nNo facts yet.')
  expect(markdown).toContain('## Sources\n\nNo sources yet.')
  expect(markdown).toContain('## Run history\n\nNo runs yet.')
})

test('facts carry their quotes; an updated fact shows what it replaced, struck through; replaced facts are history', () => {
  const run2 = { runId: 'run-2', at: '2026-11-08T10:00:00.000Z' }
  const markdown = exported(
    topicMemory({
      facts: [
        { ...fact('Cells cost $90/kWh', ['https://a.example/old']), quote: 'cost $90/kWh', supersededBy: 'now-80' },
        { ...fact('The plant opens in 2027', []), supersededBy: 'plant-not' },
        {
          ...fact('Cells cost $80/kWh', ['https://a.example/new']),
          id: 'now-80',
          firstSeen: run2,
          lastConfirmed: run2.at,
          quote: 'Cells now cost $80/kWh > # [not](a link)',
          supersedes: { id: 'Cells cost $90/kWh', change: 'updated' },
        },
        {
          ...fact('The plant will not open', ['https://a.example/new']),
          id: 'plant-not',
          firstSeen: run2,
          supersedes: { id: 'The plant opens in 2027', change: 'contradicted' },
        },
        { ...fact('Recycling costs fell', []), supersedes: { id: 'left-memory', change: 'updated' } },
        { ...fact('Output held steady', []), lastConfirmed: run2.at },
      ],
      sources: [source('https://a.example/new', 'New'), source('https://a.example/old', 'Old')],
      runs: [{ ...run2, newFacts: 2, confirmedFacts: 1, newSources: 1, urlsRead: 3 }],
    }),
  )
  expect(markdown).toContain('Runs: 2 · Facts: 4 ·')
  expect(markdown).toContain(
    [
      '## Facts',
      '',
      '1. Cells cost $80/kWh [1]\\',
      '   Was: ~~Cells cost $90/kWh~~ (last seen 2026-11-01) [2]',
      '   > Cells now cost $80/kWh \\> \\# \\[not\\] (a link)',
      '2. The plant will not open [1]\\',
      '   Previously: The plant opens in 2027 (last seen 2026-11-01)',
      '3. Recycling costs fell\\',
      '   Was: a fact no longer in memory',
      '4. Output held steady',
      '',
      '## History',
      '',
      'Facts later runs updated or contradicted: not what memory holds now.',
      '',
      '- Cells cost $90/kWh [2] — first seen 2026-11-01; updated 2026-11-08 by fact 1',
      '- The plant opens in 2027 — first seen 2026-11-01; contradicted 2026-11-08 by fact 2',
      '',
      '## Sources',
      '',
      '- [1] New — <https://a.example/new>',
      '- [2] Old — <https://a.example/old>',
    ].join('\n'),
  )
  expect(markdown).toContain('- 2026-11-08 10:00 UTC — 2 new facts, 1 confirmed, 1 new source, 3 URLs read\n')
})

test('quotes and replaced facts from pages link nowhere either', () => {
  const hostile = '[[x](https://a.test)](https://evil.test/p) <https://evil.test/a> www.evil.test \u202Erev ~~s~~'
  const markdown = exported(
    topicMemory({
      facts: [
        { ...fact(`Old ${hostile}`, ['https://a.example/x']), supersededBy: 'new' },
        {
          ...fact(`New ${hostile}`, ['https://a.example/x']),
          id: 'new',
          quote: `Quote ${hostile}\n> nested`,
          supersedes: { id: `Old ${hostile}`, change: 'updated' },
        },
      ],
      sources: [source('https://a.example/x', 'X')],
    }),
  )
  expect(unexpectedTargets(markdown, ['https://a.example/x'])).toEqual([])
  expect(markdown).not.toMatch(/[\u202A-\u202E]/)
  expect(markdown).toContain(
    '   > Quote x https\\[:\\]//evil\\[.\\]test/a www\\[.\\]evil.test rev \\~\\~s\\~\\~ \\> nested\n',
  )
  expect(markdown).toContain('   Was: ~~Old x https\\[:\\]//evil')
})

function exported(memory: TopicMemory): string {
  return exportTopicMarkdown(topicView(memory, PAGE))
}
