import { expect, test } from 'vitest'
import { deltaTitles, topicDeltaText, topicDeltaView } from '#server/mcp/topic-views.ts'
import { type Fact, type MemoryContent, PAGE } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'
import { deltaView } from '#server/topics/views.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'

const AT = '2026-11-20T10:00:00.000Z'

function fact(id: string, text: string, urls: string[], runId: string, extra: Partial<Fact> = {}): Fact {
  return upgradeFact({ id, text, sourceUrls: urls, firstSeen: { runId, at: AT }, ...extra })
}

test('page text in the delta stays text: no link but the numbered sources, no bidi control, one line each', () => {
  const hostile =
    'Output [[doubled](https://a.test)](https://evil.test/x) <https://evil.test/auto> www.evil.test \u202Erev\nNEW LINE'
  const memory: MemoryContent = {
    topic: 'Tidal [power](https://evil.test/topic)',
    facts: [
      fact('old', `Old ${hostile}`, ['https://news.example/old'], 'run-1', { supersededBy: 'new' }),
      fact('new', `New ${hostile}`, ['https://news.example/new'], 'run-2', {
        quote: `Quote ${hostile}`,
        supersedes: { id: 'old', change: 'updated' },
      }),
      // Replaced a fact that has since left memory.
      fact('orphan', 'Tides turned', ['https://news.example/orphan'], 'run-2', {
        supersedes: { id: 'gone', change: 'contradicted' },
      }),
    ],
    sources: [
      {
        url: 'https://news.example/new',
        title: 'New [x](https://evil.test/t)',
        publishedDate: null,
        firstSeen: { runId: 'run-2', at: AT },
      },
    ],
    ledger: [],
    runs: [{ runId: 'run-2', at: AT, newFacts: 2, confirmedFacts: 0, newSources: 1, urlsRead: 1 }],
  }
  const delta = deltaView(memory, PAGE)
  if (!delta) throw new Error('no delta')
  const text = topicDeltaText(memory.topic, topicDeltaView(delta), deltaTitles(delta))
  expect(
    unexpectedTargets(text, ['https://news.example/new', 'https://news.example/old', 'https://news.example/orphan']),
  ).toEqual([])
  expect(text).not.toMatch(/[\u202A-\u202E]/)
  expect(text).not.toMatch(/^NEW LINE/m)
  expect(text).toContain('Updated:\n- New Output doubled')
  expect(text).toContain('  Quote: “Quote Output doubled')
  expect(text).toContain('  Was: Old Output doubled')
  expect(text).toContain('Contradicted:\n- Tides turned [3]\n  Previously: a fact no longer in memory')
  expect(text).toContain('[1] New x — https://news.example/new')
  expect(text).toContain('[2] https://news.example/old')
})
