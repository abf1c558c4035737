// The topic views every surface writes from: what is current and what is history, what each fact
// replaced and what replaced it, sources resolved, and corpus documents addressed for the audience.
import { expect, test } from 'vitest'
import { type Audience, type Fact, PAGE, type TopicMemory } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { comparisonView, deltaView, searchView, topicView } from '#server/topics/views.ts'

const RUN_1 = { runId: '11111111-1111-4111-8111-111111111111', at: '2026-11-01T10:00:00.000Z' }
const RUN_2 = { runId: '22222222-2222-4222-8222-222222222222', at: '2026-11-08T10:00:00.000Z' }
const CLIENT: Audience = { kind: 'client', publicUrl: 'https://sextant.example' }
const CORPUS = 'https://corpus.local/ferries/timetable.md'
const NEWS = 'https://news.example/ferries'

function fact(id: string, text: string, urls: string[], firstSeen = RUN_1, extra: Partial<Fact> = {}): Fact {
  return upgradeFact({ id, text, sourceUrls: urls, firstSeen, ...extra })
}

function memory(partial: Partial<TopicMemory> = {}): TopicMemory {
  return {
    topicId: 'f0f0f0f0-0000-4000-8000-000000000001',
    topic: 'Island ferries',
    facts: [
      fact('fare-9', 'A crossing costs £9', [CORPUS], RUN_1, { supersededBy: 'fare-11' }),
      fact('daily', 'Ferries sail daily', [NEWS]),
      fact('fare-11', 'A crossing costs £11', [NEWS, 'https://uncited.example/x'], RUN_2, {
        quote: 'fares rise to £11',
        supersedes: { id: 'fare-9', change: 'updated' },
      }),
      // Replaced a fact that has since left memory.
      fact('winter', 'Winter sailings are cut', [CORPUS], RUN_2, {
        supersedes: { id: 'gone', change: 'contradicted' },
      }),
    ],
    sources: [
      { url: CORPUS, title: 'Timetable', publishedDate: null, firstSeen: RUN_1 },
      { url: NEWS, title: '', publishedDate: '2026-11-07', firstSeen: RUN_2 },
    ],
    ledger: [{ url: 'https://ledger.example/read-only', readAt: RUN_1.at }],
    runs: [
      { ...RUN_2, newFacts: 2, confirmedFacts: 1, newSources: 1, urlsRead: 3, queries: ['ferry fares'] },
      { ...RUN_1, newFacts: 2, newSources: 1, urlsRead: 2 },
    ],
    runCount: 2,
    urlsIndexed: 5,
    factsStored: 4,
    lastRunAt: new Date(RUN_2.at),
    expiresAt: new Date('2026-12-08T10:00:00.000Z'),
    ...partial,
  }
}

test('a topic view holds what is true now apart from history, each fact paired with what it replaced', () => {
  const view = topicView(memory(), PAGE)
  expect(view.facts.map((each) => each.id)).toEqual(['daily', 'fare-11', 'winter'])
  expect(view.facts[1]?.replaced).toMatchObject({
    id: 'fare-9',
    change: 'updated',
    previous: { text: 'A crossing costs £9' },
  })
  // The replaced fact left memory: its id and how are still said.
  expect(view.facts[2]?.replaced).toEqual({ id: 'gone', change: 'contradicted', previous: null })
  expect(view.history).toMatchObject([
    { id: 'fare-9', supersededBy: 'fare-11', replacedBy: { change: 'updated', text: 'A crossing costs £11' } },
  ])
  expect(view.summary).toMatchObject({ topic: 'Island ferries', factCount: 3, sourceCount: 2 })
  expect(view.stats).toEqual({ runCount: 2, urlsIndexed: 5, factsStored: 4, lastRunAt: RUN_2.at })
})

test('sources resolve to their titles; a cited URL memory has no source for shows as itself', () => {
  const [, current] = topicView(memory(), PAGE).facts
  expect(current?.sources).toEqual([
    { url: NEWS, title: '', label: NEWS, publishedDate: '2026-11-07', firstSeen: RUN_2 },
    {
      url: 'https://uncited.example/x',
      title: '',
      label: 'https://uncited.example/x',
      publishedDate: null,
      firstSeen: RUN_2,
    },
  ])
  // A first-seen run id that names no run (memory written by hand) links nowhere.
  const handWritten = topicView(memory({ facts: [fact('x', 'X', [], { runId: 'run-1', at: RUN_1.at })] }), PAGE)
  expect(handWritten.facts[0]?.firstSeen).toEqual({ runId: null, at: RUN_1.at })
})

test('read away from the pages, a corpus document is its page on this server, everywhere in every view', () => {
  const page = 'https://sextant.example/corpus/ferries/timetable.md'
  const away = topicView(memory(), CLIENT)
  const urls = (view: unknown) => JSON.stringify(view).match(/https:\/\/[^"]+/g) ?? []
  expect(urls(away)).not.toContain(CORPUS)
  expect(away.sources[0]?.url).toBe(page)
  expect(away.history[0]?.sourceUrls).toEqual([page])
  expect(away.facts[1]?.replaced?.previous?.sourceUrls).toEqual([page])
  const delta = deltaView(memory(), CLIENT)
  expect(delta?.contradicted[0]?.sourceUrls).toEqual([page])
  expect(urls(delta)).not.toContain(CORPUS)
  expect(urls(searchView([memory()], 'crossing costs', {}, CLIENT))).not.toContain(CORPUS)
  expect(urls(comparisonView(memory(), memory({ topic: 'Ferries' }), CLIENT))).not.toContain(CORPUS)
  // The pages link corpus documents themselves: they get the names memory holds.
  expect(topicView(memory(), PAGE).sources[0]?.url).toBe(CORPUS)
})

test('no view carries the URL ledger or the queries a run kept for the next one', () => {
  const text = JSON.stringify([topicView(memory(), CLIENT), deltaView(memory(), CLIENT)])
  expect(text).not.toContain('ledger.example')
  expect(text).not.toContain('ferry fares')
  expect(topicView(memory(), PAGE).runs[0]).toEqual({
    ...RUN_2,
    newFacts: 2,
    confirmedFacts: 1,
    newSources: 1,
    urlsRead: 3,
  })
})

test('the delta is the latest run: its new, updated and contradicted facts, each with what it replaced', () => {
  const delta = deltaView(memory(), PAGE)
  expect(delta).toMatchObject({ runId: RUN_2.runId, confirmed: 1 })
  expect(delta?.facts.map((each) => each.id)).toEqual(['fare-11', 'winter'])
  expect(delta?.newFacts).toEqual([])
  expect(delta?.updated.map((each) => each.replaced?.previous?.text)).toEqual(['A crossing costs £9'])
  expect(delta?.contradicted.map((each) => each.replaced?.previous)).toEqual([null])
  expect(delta?.sources.map((source) => source.url)).toEqual([NEWS])
  expect(deltaView(memory({ runs: [] }), PAGE)).toBeUndefined()
})
