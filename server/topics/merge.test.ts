import { expect, test } from 'vitest'
import {
  type Fact,
  LEDGER_CAP,
  type MemoryContent,
  type MemoryContribution,
  RUN_HISTORY_CAP,
} from '#server/topics/contract.ts'
import { contributedFact, READING, readClaim, upgradeFact } from '#server/topics/facts.ts'
import { factId, mergeMemory } from '#server/topics/merge.ts'

function contribution(overrides: Partial<MemoryContribution> = {}): MemoryContribution {
  return {
    runId: 'run-1',
    at: new Date('2026-03-01T10:00:00.000Z'),
    facts: [],
    sources: [],
    urlsRead: [],
    ...overrides,
  }
}

function merged(...contributions: MemoryContribution[]): MemoryContent {
  let content: MemoryContent | undefined
  for (const each of contributions) content = mergeMemory(content, each, 'Topic').content
  if (!content) throw new Error('no contributions')
  return content
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}

function urls(from: number, to: number): string[] {
  return Array.from({ length: to - from }, (_, index) => `https://example.com/page/${from + index}`)
}

test('a fact id is 16 hex characters and ignores case, width, spacing and closing punctuation', () => {
  const id = factId('Battery prices fell 20% in 2025.')
  expect(id).toMatch(/^[0-9a-f]{16}$/)
  expect(factId('  battery   PRICES fell 20% in 2025 !')).toBe(id)
  expect(factId('Ｂattery prices fell 20% in 2025')).toBe(id)
  expect(factId('Battery prices fell 30% in 2025.')).not.toBe(id)
})

test('a first run creates the memory with the display topic and everything it found', () => {
  const result = mergeMemory(
    undefined,
    contribution({
      facts: [contributedFact(' Sodium cells are cheaper. ', ['https://Example.com/a/?utm_source=x', 'ftp://x/y'])],
      sources: [{ url: 'https://example.com/a#top', title: 'Cells', publishedDate: '2026-02-01' }],
      urlsRead: ['https://example.com/a', 'https://example.com/b/', 'javascript:alert(1)'],
      summary: 'Looked at cells.',
    }),
    '  Sodium   Batteries ',
  )
  const firstSeen = { runId: 'run-1', at: '2026-03-01T10:00:00.000Z' }
  expect(result.added).toEqual({ facts: 1, sources: 1 })
  expect(result.content).toEqual({
    topic: 'Sodium Batteries',
    facts: [
      {
        ...readClaim('Sodium cells are cheaper.'),
        id: factId('Sodium cells are cheaper.'),
        text: 'Sodium cells are cheaper.',
        quote: '',
        sourceUrls: ['https://example.com/a'],
        readWith: READING,
        firstSeen,
        lastConfirmed: firstSeen.at,
      },
    ],
    sources: [{ url: 'https://example.com/a', title: 'Cells', publishedDate: '2026-02-01', firstSeen }],
    ledger: [
      { url: 'https://example.com/a', readAt: firstSeen.at },
      { url: 'https://example.com/b', readAt: firstSeen.at },
    ],
    runs: [
      {
        runId: 'run-1',
        at: firstSeen.at,
        newFacts: 1,
        confirmedFacts: 0,
        newSources: 1,
        urlsRead: 2,
        summary: 'Looked at cells.',
      },
    ],
  })
})

test('the same fact said twice, in one run or across runs, is stored once with its first text and time', () => {
  const first = mergeMemory(
    undefined,
    contribution({
      facts: [
        contributedFact('Prices fell.', ['https://a.example/1']),
        contributedFact('prices   FELL', ['https://a.example/1/', 'https://b.example/2']),
      ],
    }),
    'Topic',
  )
  expect(first.added.facts).toBe(1)
  const second = mergeMemory(
    first.content,
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-02T10:00:00.000Z'),
      facts: [contributedFact('Prices fell!', ['https://c.example/3?fbclid=1', 'https://b.example/2#x', 'nope'])],
    }),
    'Topic',
  )
  expect(second.added.facts).toBe(0)
  expect(second.content.facts).toEqual([
    expect.objectContaining({
      id: factId('Prices fell.'),
      text: 'Prices fell.',
      sourceUrls: ['https://a.example/1', 'https://b.example/2', 'https://c.example/3'],
      firstSeen: { runId: 'run-1', at: '2026-03-01T10:00:00.000Z' },
      // Said again: the second run confirms it.
      lastConfirmed: '2026-03-02T10:00:00.000Z',
    }),
  ])
  expect(second.content.runs[0]).toMatchObject({ runId: 'run-2', newFacts: 0 })
})

test('empty and punctuation-only facts are dropped', () => {
  const result = mergeMemory(
    undefined,
    contribution({
      facts: [contributedFact('   ', []), contributedFact(' … ', []), contributedFact('Real.', [])],
    }),
    'Topic',
  )
  expect(result.content.facts.map((fact) => fact.text)).toEqual(['Real.'])
  expect(result.added.facts).toBe(1)
})

test('a source is stored once per canonical URL, and a later run only fills in a missing title or date', () => {
  const content = merged(
    contribution({
      sources: [
        { url: 'https://example.com/a', title: '', publishedDate: '2026-01-01' },
        { url: 'https://example.com/b', title: 'B', publishedDate: null },
        { url: 'not a url', title: 'Dropped', publishedDate: null },
      ],
    }),
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-02T00:00:00.000Z'),
      sources: [
        { url: 'https://EXAMPLE.com/a/', title: 'A', publishedDate: '2099-12-31' },
        { url: 'https://example.com/b?utm_medium=x', title: 'B renamed', publishedDate: '2026-02-02' },
      ],
    }),
  )
  const firstSeen = { runId: 'run-1', at: '2026-03-01T10:00:00.000Z' }
  expect(content.sources).toEqual([
    { url: 'https://example.com/a', title: 'A', publishedDate: '2026-01-01', firstSeen },
    { url: 'https://example.com/b', title: 'B', publishedDate: '2026-02-02', firstSeen },
  ])
  expect(content.runs[0]).toMatchObject({ runId: 'run-2', newSources: 0 })
})

test('the ledger keeps the latest read time of each URL, newest first, ties in URL order', () => {
  const content = merged(
    contribution({ urlsRead: ['https://example.com/z', 'https://example.com/old', 'https://example.com/a'] }),
    contribution({ runId: 'run-2', at: new Date('2026-03-05T00:00:00.000Z'), urlsRead: ['https://example.com/z/'] }),
    // A late save of an older run must not move a read time backwards.
    contribution({ runId: 'run-0', at: new Date('2026-02-01T00:00:00.000Z'), urlsRead: ['https://example.com/z'] }),
  )
  expect(content.ledger).toEqual([
    { url: 'https://example.com/z', readAt: '2026-03-05T00:00:00.000Z' },
    { url: 'https://example.com/a', readAt: '2026-03-01T10:00:00.000Z' },
    { url: 'https://example.com/old', readAt: '2026-03-01T10:00:00.000Z' },
  ])
})

test('700 URLs read over seven saves leave the 500 most recently read in the ledger', () => {
  const saves = Array.from({ length: 7 }, (_, index) =>
    contribution({
      runId: `run-${index}`,
      at: new Date(Date.UTC(2026, 2, 1 + index)),
      urlsRead: urls(index * 100, index * 100 + 100),
    }),
  )
  const content = merged(...saves)
  expect(content.ledger).toHaveLength(LEDGER_CAP)
  const kept = new Set(content.ledger.map((entry) => entry.url))
  for (const url of urls(200, 700)) expect(kept.has(url), url).toBe(true)
  for (const url of urls(0, 200)) expect(kept.has(url), url).toBe(false)
  expect(content.ledger[0]?.readAt).toBe('2026-03-07T00:00:00.000Z')
  expect(content.ledger.at(-1)?.readAt).toBe('2026-03-03T00:00:00.000Z')
})

test('a URL read again is kept even when it was among the oldest', () => {
  const content = merged(
    contribution({ runId: 'run-1', at: new Date('2026-03-01T00:00:00.000Z'), urlsRead: urls(0, 500) }),
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-02T00:00:00.000Z'),
      urlsRead: [...urls(500, 700), 'https://example.com/page/99'],
    }),
  )
  expect(content.ledger).toHaveLength(LEDGER_CAP)
  expect(content.ledger.map((entry) => entry.url)).toContain('https://example.com/page/99')
})

test('saving the same run again changes nothing and adds nothing', () => {
  const run = contribution({
    facts: [contributedFact('A fact.', ['https://example.com/a'])],
    sources: [{ url: 'https://example.com/a', title: 'A', publishedDate: null }],
    urlsRead: ['https://example.com/a'],
  })
  const first = mergeMemory(undefined, run, 'Topic')
  const retry = mergeMemory(first.content, run, 'Topic')
  expect(retry.added).toEqual({ facts: 0, sources: 0 })
  expect(retry.content).toEqual(first.content)
  expect(retry.content.runs).toHaveLength(1)
})

test('the run history keeps the newest runs only', () => {
  const runs = Array.from({ length: RUN_HISTORY_CAP + 5 }, (_, index) =>
    contribution({ runId: `run-${index}`, at: new Date(Date.UTC(2026, 0, 1 + index)) }),
  )
  const content = merged(...runs)
  expect(content.runs).toHaveLength(RUN_HISTORY_CAP)
  expect(content.runs[0]?.runId).toBe(`run-${RUN_HISTORY_CAP + 4}`)
  expect(content.runs.at(-1)?.runId).toBe('run-5')
})

test('two runs merged in either order hold the same facts, sources and ledger', () => {
  const a = contribution({
    runId: 'run-a',
    at: new Date('2026-03-01T00:00:00.000Z'),
    facts: [contributedFact('Fact from A.', ['https://a.example/'])],
    sources: [{ url: 'https://a.example/', title: 'A', publishedDate: null }],
    urlsRead: ['https://a.example/', 'https://shared.example/x'],
  })
  const b = contribution({
    runId: 'run-b',
    at: new Date('2026-03-02T00:00:00.000Z'),
    facts: [contributedFact('Fact from B.', ['https://b.example/'])],
    sources: [{ url: 'https://b.example/', title: 'B', publishedDate: null }],
    urlsRead: ['https://b.example/', 'https://shared.example/x'],
  })
  const ab = merged(a, b)
  const ba = merged(b, a)
  const byId = (left: { id: string }, right: { id: string }) => left.id.localeCompare(right.id)
  const byUrl = (left: { url: string }, right: { url: string }) => left.url.localeCompare(right.url)
  expect([...ab.facts].sort(byId)).toEqual([...ba.facts].sort(byId))
  expect(ab.facts.map((fact) => fact.text).sort()).toEqual(['Fact from A.', 'Fact from B.'])
  expect([...ab.sources].sort(byUrl)).toEqual([...ba.sources].sort(byUrl))
  expect(ab.ledger).toEqual(ba.ledger)
  expect(ab.runs.map((run) => run.runId)).toEqual(['run-b', 'run-a'])
  expect(ba.runs.map((run) => run.runId)).toEqual(['run-b', 'run-a'])
})

test('an existing memory keeps its display topic', () => {
  const first = mergeMemory(undefined, contribution(), 'AI Agents')
  const second = mergeMemory(first.content, contribution({ runId: 'run-2' }), 'ａｉ　ａｇｅｎｔｓ')
  expect(second.content.topic).toBe('AI Agents')
})

test('merging does not modify its inputs', () => {
  const existing = deepFreeze(
    merged(
      contribution({
        facts: [contributedFact('Old fact.', ['https://example.com/a'])],
        sources: [{ url: 'https://example.com/a', title: '', publishedDate: null }],
        urlsRead: ['https://example.com/a'],
      }),
    ),
  )
  const snapshot = structuredClone(existing)
  const next = deepFreeze(
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-02T00:00:00.000Z'),
      facts: [contributedFact('old fact', ['https://example.com/b'])],
      sources: [{ url: 'https://example.com/a', title: 'Now titled', publishedDate: '2026-01-01' }],
      urlsRead: ['https://example.com/a', 'https://example.com/b'],
    }),
  )
  const result = mergeMemory(existing, next, 'Topic')
  expect(existing).toEqual(snapshot)
  expect(result.content.facts[0]?.sourceUrls).toEqual(['https://example.com/a', 'https://example.com/b'])
  expect(result.content.sources[0]?.title).toBe('Now titled')
})

test('an update supersedes the fact it replaces, a confirmation moves its last-confirmed time, and vectors follow their model', () => {
  const first = mergeMemory(
    undefined,
    contribution({ facts: [contributedFact('Cells cost $90/kWh.', ['https://a.example/1'])] }),
    'Topic',
  ).content
  const old = first.facts[0]
  if (!old) throw new Error('no fact')
  const second = mergeMemory(
    first,
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-08T10:00:00.000Z'),
      facts: [
        {
          ...contributedFact('Cells cost $80/kWh.', ['https://b.example/2']),
          change: { class: 'updated', factId: old.id },
        },
      ],
      vectors: { model: 'embed-a', byFact: { [old.id]: 'AAAA' } },
    }),
    'Topic',
  ).content
  const updated = second.facts.find((fact) => fact.text === 'Cells cost $80/kWh.')
  expect(updated?.supersedes).toEqual({ id: old.id, change: 'updated' })
  expect(second.facts.find((fact) => fact.id === old.id)).toMatchObject({ supersededBy: updated?.id, vector: 'AAAA' })
  expect(second.vectorModel).toBe('embed-a')

  const third = mergeMemory(
    second,
    contribution({
      runId: 'run-3',
      at: new Date('2026-03-15T10:00:00.000Z'),
      facts: [
        {
          ...contributedFact('Cells now cost $80 per kWh.', ['https://c.example/3']),
          change: { class: 'confirmed', factId: updated?.id as string },
        },
      ],
      // Another embedding model: vectors of the old one are dropped, never compared.
      vectors: { model: 'embed-b', byFact: {} },
    }),
    'Topic',
  ).content
  const confirmed = third.facts.find((fact) => fact.id === updated?.id)
  expect(confirmed?.lastConfirmed).toBe('2026-03-15T10:00:00.000Z')
  expect(confirmed?.sourceUrls).toEqual(['https://b.example/2', 'https://c.example/3'])
  expect(third.facts).toHaveLength(2)
  expect(third.facts.every((fact) => fact.vector === undefined)).toBe(true)
  expect(third.runs[0]).toMatchObject({ newFacts: 0, confirmedFacts: 1 })
})

test('past the cap, what a fact replaced goes before any current fact, however long unconfirmed', () => {
  const first = mergeMemory(
    undefined,
    contribution({
      runId: 'run-1',
      at: new Date('2026-03-01T10:00:00.000Z'),
      facts: [contributedFact('The plant employs 310 people.', []), contributedFact('The plant opened in 1974.', [])],
    }),
    'Topic',
    3,
  ).content
  const old = first.facts[0] as Fact
  const second = mergeMemory(
    first,
    contribution({
      runId: 'run-2',
      at: new Date('2026-03-02T10:00:00.000Z'),
      facts: [
        { ...contributedFact('The plant now employs 250 people.', []), change: { class: 'updated', factId: old.id } },
      ],
    }),
    'Topic',
    3,
  ).content
  const third = mergeMemory(
    second,
    contribution({
      runId: 'run-3',
      at: new Date('2026-03-03T10:00:00.000Z'),
      facts: [contributedFact('The plant will close a line in May.', [])],
    }),
    'Topic',
    3,
  ).content
  // The replaced headcount goes; the opening year, unconfirmed as long, stays current.
  expect(third.facts.map((fact) => fact.text)).toEqual([
    'The plant opened in 1974.',
    'The plant now employs 250 people.',
    'The plant will close a line in May.',
  ])
  expect(third.facts.every((fact) => !fact.supersededBy)).toBe(true)
})

test('past the cap, the facts unconfirmed longest go first', () => {
  let content: MemoryContent | undefined
  for (let day = 1; day <= 5; day++) {
    content = mergeMemory(
      content,
      contribution({
        runId: `run-${day}`,
        at: new Date(`2026-03-0${day}T10:00:00.000Z`),
        facts: [contributedFact(`Fact of day ${day} about plant number ${day * 11}.`, [])],
      }),
      'Topic',
      3,
    ).content
  }
  expect(content?.facts.map((fact) => fact.text)).toEqual([
    'Fact of day 3 about plant number 33.',
    'Fact of day 4 about plant number 44.',
    'Fact of day 5 about plant number 55.',
  ])
  // Day 3's fact confirmed on day 6 outlives day 4's when the cap is 2.
  const sixth = mergeMemory(
    content,
    contribution({
      runId: 'run-6',
      at: new Date('2026-03-06T10:00:00.000Z'),
      facts: [
        {
          ...contributedFact('Fact of day 3 again.', []),
          change: { class: 'confirmed', factId: content?.facts[0]?.id as string },
        },
      ],
    }),
    'Topic',
    2,
  ).content
  expect(sixth.facts.map((fact) => fact.text)).toEqual([
    'Fact of day 3 about plant number 33.',
    'Fact of day 5 about plant number 55.',
  ])
})

test('a fact read by an older edition of the rules is read again on load; a current one is kept as stored', () => {
  const firstSeen = { runId: 'run-1', at: '2026-03-01T10:00:00.000Z' }
  const text = 'The Dresden fab is no longer on track to open in 2027.'
  // As the first edition stored it: "no longer" counted twice, so not negated, and "longer" a subject word.
  const stale = {
    id: factId(text),
    text,
    quote: text,
    sourceUrls: ['https://example.com/a'],
    statements: { figures: [], dates: ['2027'] },
    subject: ['dresden', 'fab', 'longer', 'track'],
    polarity: { negated: false, directions: ['stance:up'] },
    firstSeen,
    lastConfirmed: '2026-04-01T10:00:00.000Z',
  }
  const upgraded = upgradeFact(stale)
  expect(upgraded).toMatchObject({ ...readClaim(text), readWith: READING, lastConfirmed: stale.lastConfirmed })
  // Read again, "no longer" turns round the stance of its clause: on track no more.
  expect(upgraded.polarity).toEqual({ negated: false, directions: ['stance:down'] })
  expect(upgraded.subject).not.toContain('longer')
  // Today's edition's readings are kept as stored, not read again; readings of another shape are.
  const current = { ...stale, subject: ['kept'], readWith: READING }
  expect(upgradeFact(current)).toEqual(current)
  expect(upgradeFact({ ...current, subject: 'kept' }).subject).toEqual(readClaim(text).subject)
  expect(upgradeFact({ ...current, statements: { figures: [{ value: '2027' }], dates: [] } }).statements).toEqual(
    readClaim(text).statements,
  )
  // A fact read by the edition before stance was read by part of speech is read again: its noun
  // "terminal" took a stance then.
  const terminal = 'The branch runs to the ferry terminal.'
  const earlier = { ...stale, id: factId(terminal), text: terminal, quote: terminal, readWith: 2 }
  expect(upgradeFact({ ...earlier, polarity: { negated: false, directions: ['stance:down'] } }).polarity).toEqual({
    negated: false,
    directions: [],
  })
})
