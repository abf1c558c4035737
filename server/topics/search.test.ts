import { expect, test } from 'vitest'
import type { Fact, MemoryContent } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { searchMemory } from '#server/topics/search.ts'

function fact(id: string, text: string, at = '2026-11-01T10:00:00.000Z'): Fact {
  return upgradeFact({ id, text, sourceUrls: ['https://example.com/a'], firstSeen: { runId: 'run-1', at } })
}

function topic(topicId: string, name: string, facts: Fact[]) {
  const content: MemoryContent = { topic: name, facts, sources: [], ledger: [], runs: [] }
  return { topicId, topic: name, content }
}

test('a fact matching more of the query ranks above one matching less', () => {
  const topics = [
    topic('t1', 'Energy storage', [
      fact('f-one', 'Sodium batteries are cheaper than earlier designs'),
      fact('f-all', 'Solid-state batteries reached 500 Wh/kg in tests'),
    ]),
  ]
  const hits = searchMemory(topics, 'solid-state batteries')
  expect(hits.map((hit) => hit.fact.id)).toEqual(['f-all', 'f-one'])
  expect(hits[0]?.matched).toEqual(['solid', 'state', 'batteries'])
  expect(hits[1]?.matched).toEqual(['batteries'])
})

test('a rarer matching term outweighs a common one', () => {
  const topics = [
    topic('t1', 'Battery materials', [
      fact('common', 'Lithium supply tightened'),
      fact('rare', 'Sodium supply tightened'),
      fact('other-1', 'Lithium prices fell'),
      fact('other-2', 'Lithium recycling grew'),
    ]),
  ]
  const hits = searchMemory(topics, 'lithium sodium')
  expect(hits[0]?.fact.id).toBe('rare')
  expect(hits.map((hit) => hit.fact.id)).toHaveLength(4)
})

test('CJK queries find facts written without spaces, and full-width letters match plain ones', () => {
  const topics = [
    topic('t1', '量子', [
      fact('zh', '量子计算的进展很快'),
      fact('ja', '東京大学の研究チームが発表した'),
      fact('en', 'ABC news'),
    ]),
  ]
  expect(searchMemory(topics, '计算').map((hit) => hit.fact.id)).toEqual(['zh'])
  expect(searchMemory(topics, '大学').map((hit) => [hit.fact.id, hit.matched])).toEqual([['ja', ['大学']]])
  expect(searchMemory(topics, 'ａｂｃ').map((hit) => hit.fact.id)).toEqual(['en'])
})

test('results default to 20, respect the limit, and never exceed 100', () => {
  const facts = Array.from({ length: 120 }, (_, i) => fact(`f${String(i).padStart(3, '0')}`, `battery note ${i}`))
  const topics = [topic('t1', 'Notes', facts)]
  expect(searchMemory(topics, 'battery')).toHaveLength(20)
  expect(searchMemory(topics, 'battery', { limit: 5 })).toHaveLength(5)
  expect(searchMemory(topics, 'battery', { limit: 1000 })).toHaveLength(100)
})

test('an empty, blank or punctuation-only query returns nothing', () => {
  const topics = [topic('t1', 'Notes', [fact('f1', 'anything at all')])]
  expect(searchMemory(topics, '')).toEqual([])
  expect(searchMemory(topics, '   \n')).toEqual([])
  expect(searchMemory(topics, '?!')).toEqual([])
})

test('search spans topics, and a topic named after the query ranks its equal fact first', () => {
  const topics = [
    topic('t-cooking', 'Cooking', [fact('c1', 'Induction hobs heat pans quickly')]),
    topic('t-hobs', 'Induction hobs', [fact('c1', 'Induction hobs heat pans quickly')]),
    topic('t-none', 'Gardening', [fact('g1', 'Tomatoes need sun')]),
  ]
  const hits = searchMemory(topics, 'induction')
  expect(hits.map((hit) => [hit.topicId, hit.topic])).toEqual([
    ['t-hobs', 'Induction hobs'],
    ['t-cooking', 'Cooking'],
  ])
  expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY)
})

test('equal scores put the newer fact first, then the lower id', () => {
  const topics = [
    topic('t1', 'Notes', [
      fact('b', 'grid storage', '2026-10-01T00:00:00.000Z'),
      fact('c', 'grid storage', '2026-11-01T00:00:00.000Z'),
      fact('a', 'grid storage', '2026-10-01T00:00:00.000Z'),
    ]),
  ]
  expect(searchMemory(topics, 'grid').map((hit) => hit.fact.id)).toEqual(['c', 'a', 'b'])
})

test('a fact a later run replaced is history: search does not find it', () => {
  const old = { ...fact('old', 'Sodium cells cost $90/kWh'), supersededBy: 'new' }
  const current = fact('new', 'Sodium cells cost $80/kWh')
  const hits = searchMemory([topic('t1', 'Batteries', [old, current])], 'sodium cells')
  expect(hits.map((hit) => hit.fact.id)).toEqual(['new'])
})
