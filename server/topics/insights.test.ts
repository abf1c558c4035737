import { expect, test } from 'vitest'
import type { Fact, MemoryContent, RunRecord, Source } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { compareTopics, currentFacts, topicDelta } from '#server/topics/insights.ts'

function fact(id: string, text: string, sourceUrls: string[], runId = 'run-1'): Fact {
  return upgradeFact({ id, text, sourceUrls, firstSeen: { runId, at: '2026-11-01T10:00:00.000Z' } })
}

function source(url: string, runId = 'run-1'): Source {
  return { url, title: url, publishedDate: null, firstSeen: { runId, at: '2026-11-01T10:00:00.000Z' } }
}

function run(runId: string, at: string): RunRecord {
  return { runId, at, newFacts: 1, newSources: 1, urlsRead: 3 }
}

function memory(partial: Partial<MemoryContent>): MemoryContent {
  return { topic: 'Topic', facts: [], sources: [], ledger: [], runs: [], ...partial }
}

test('the delta holds only the facts and sources first seen in the latest run', () => {
  const content = memory({
    runs: [run('run-2', '2026-11-02T10:00:00.000Z'), run('run-1', '2026-11-01T10:00:00.000Z')],
    facts: [fact('old', 'Old fact', [], 'run-1'), fact('new', 'New fact', [], 'run-2')],
    sources: [source('https://a.example/old', 'run-1'), source('https://a.example/new', 'run-2')],
  })
  expect(topicDelta(content)).toEqual({
    runId: 'run-2',
    at: '2026-11-02T10:00:00.000Z',
    facts: [content.facts[1]],
    newFacts: [content.facts[1]],
    updated: [],
    contradicted: [],
    confirmed: 0,
    sources: [content.sources[1]],
  })
})

test('the delta tells new, updated and contradicted facts apart, with what each replaced, and counts the confirmed', () => {
  const oldPrice = {
    ...fact('price-90', 'Cells cost $90/kWh', ['https://a.example/p'], 'run-1'),
    supersededBy: 'price-80',
  }
  const oldPlant = { ...fact('plant-opens', 'The plant opens in 2027', [], 'run-1'), supersededBy: 'plant-not' }
  const price = {
    ...fact('price-80', 'Cells cost $80/kWh', [], 'run-2'),
    supersedes: { id: 'price-90', change: 'updated' as const },
  }
  const plant = {
    ...fact('plant-not', 'The plant will not open in 2027', [], 'run-2'),
    supersedes: { id: 'plant-opens', change: 'contradicted' as const },
  }
  // Replaced a fact that has since left memory (past the cap): still an update, with nothing to show as "was".
  const orphan = {
    ...fact('orphan', 'Recycling costs a third', [], 'run-2'),
    supersedes: { id: 'gone', change: 'updated' as const },
  }
  const fresh = fact('fresh', 'BYD opened a recycling line', [], 'run-2')
  const content = memory({
    runs: [
      { ...run('run-2', '2026-11-02T10:00:00.000Z'), confirmedFacts: 3 },
      run('run-1', '2026-11-01T10:00:00.000Z'),
    ],
    facts: [oldPrice, oldPlant, price, plant, orphan, fresh],
  })
  const delta = topicDelta(content)
  expect(delta?.newFacts).toEqual([fresh])
  expect(delta?.updated).toEqual([
    { fact: price, previous: oldPrice },
    { fact: orphan, previous: undefined },
  ])
  expect(delta?.contradicted).toEqual([{ fact: plant, previous: oldPlant }])
  expect(delta?.confirmed).toBe(3)
  expect(currentFacts(content.facts).map((f) => f.id)).toEqual(['price-80', 'plant-not', 'orphan', 'fresh'])
})

test('a topic that has never run has no delta', () => {
  expect(topicDelta(memory({}))).toBeUndefined()
})

test('comparison finds shared sources by URL and lists the rest per topic', () => {
  const a = memory({ sources: [source('https://shared.example/x'), source('https://a.example/only')] })
  const b = memory({ sources: [source('https://b.example/only'), source('https://shared.example/x')] })
  const result = compareTopics({ topic: 'Batteries', content: a }, { topic: 'Grid storage', content: b })
  expect(result.topics).toEqual(['Batteries', 'Grid storage'])
  expect(result.sharedSources.map((s) => s.url)).toEqual(['https://shared.example/x'])
  expect(result.onlyA.sources.map((s) => s.url)).toEqual(['https://a.example/only'])
  expect(result.onlyB.sources.map((s) => s.url)).toEqual(['https://b.example/only'])
  expect(result.summary).toMatchObject({ sourcesA: 2, sourcesB: 2, sharedSources: 1 })
})

test('facts are shared by id, or by a common source with a high word overlap', () => {
  const same = fact('same-id', 'Sodium cells cost less than lithium cells', ['https://a.example/1'])
  const reworded = fact('a-reg', 'The EU battery regulation takes effect in 2027', ['https://eu.example/reg'])
  const a = memory({
    facts: [
      same,
      reworded,
      // Near-identical wording but no common source: a different claim as far as we can tell.
      fact('a-uncited', 'Grid batteries grew 40% in 2025', ['https://a.example/grid']),
      // A common source but different content.
      fact('a-other', 'Recycling rates remain low', ['https://eu.example/reg']),
    ],
  })
  const b = memory({
    facts: [
      fact('b-reg', 'The EU battery regulation takes effect from 2027', [
        'https://b.example/x',
        'https://eu.example/reg',
      ]),
      fact('same-id', 'Sodium cells cost less than lithium cells', ['https://b.example/2']),
      fact('b-uncited', 'Grid batteries grew 40% in 2025', ['https://b.example/grid']),
    ],
  })
  const result = compareTopics({ topic: 'A', content: a }, { topic: 'B', content: b })
  expect(result.sharedFacts.map(({ a, b }) => [a.id, b.id])).toEqual([
    ['same-id', 'same-id'],
    ['a-reg', 'b-reg'],
  ])
  expect(result.onlyA.facts.map((f) => f.id)).toEqual(['a-uncited', 'a-other'])
  expect(result.onlyB.facts.map((f) => f.id)).toEqual(['b-uncited'])
  expect(result.summary).toMatchObject({ factsA: 4, factsB: 3, sharedFacts: 2 })
})

test('each fact pairs at most once, with its most similar counterpart', () => {
  const url = 'https://shared.example/report'
  const a = memory({ facts: [fact('a1', 'Heat pumps cut household gas use by half', [url])] })
  const b = memory({
    facts: [
      fact('b-close', 'Heat pumps cut household gas use by a half', [url]),
      fact('b-exact', 'heat pumps cut household gas use by half', [url]),
    ],
  })
  const result = compareTopics({ topic: 'A', content: a }, { topic: 'B', content: b })
  expect(result.sharedFacts.map(({ b }) => b.id)).toEqual(['b-exact'])
  expect(result.onlyB.facts.map((f) => f.id)).toEqual(['b-close'])
})

test('topics are compared on the facts they hold now, not on replaced ones', () => {
  const a = memory({
    facts: [{ ...fact('a-old', 'Old claim about cells', []), supersededBy: 'a-new' }, fact('a-new', 'New claim', [])],
  })
  const b = memory({ facts: [fact('b1', 'Other claim', [])] })
  const result = compareTopics({ topic: 'A', content: a }, { topic: 'B', content: b })
  expect(result.onlyA.facts.map((f) => f.id)).toEqual(['a-new'])
  expect(result.summary.factsA).toBe(1)
})
