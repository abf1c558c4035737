import { expect, test } from 'vitest'
import type { Report } from '#server/research/report-types.ts'
import { readStoredReport } from '#server/research/stored-report.ts'

/** A report as a version before this one stored it: no corpus fields, the corpus by its names. */
function storedReport(search: string, urls: string[]): Report {
  return {
    summary: '## Heat pumps\n\n- Installers wait nine weeks. [1]',
    delta: {
      baseline: false,
      since: '2026-11-01T10:00:00.000Z',
      newFindings: [],
      updated: [
        {
          text: 'Installers wait nine weeks.',
          quote: 'wait an average of nine weeks',
          sources: [1],
          previous: { text: 'Installers wait six weeks.', seenAt: '2026-11-01T10:00:00.000Z', urls },
        },
      ],
      contradicted: [],
      confirmed: 0,
      summary: 'Since 2026-11-01: 1 updated.',
    },
    integrity: { claims: 1, shown: 1, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 },
    sources: urls.map((url, index) => ({ n: index + 1, url, title: 'Installers', publishedAt: null, snippet: '' })),
    generatedWith: {
      synthesis: 'extractive (no language model)',
      synthesisKind: 'extractive',
      search,
      plan: 'fallback',
    },
    usage: { inputTokens: 0, outputTokens: 0, searchCalls: 1, costDollars: null },
  }
}

const CORPUS_URL = 'https://corpus.local/heat-pumps/installer-training-push'

test('a corpus report stored before runs recorded it is read as the invented sample, with its notice', () => {
  const report = readStoredReport(storedReport('local corpus', [CORPUS_URL]))
  expect(report.generatedWith).toMatchObject({
    corpus: 'sample',
    search: 'the sample corpus bundled with Sextant (invented articles, not the web)',
  })
  expect(report.generatedWith.offlineFallback).toBeUndefined()
  expect(report.sources[0]?.corpus).toBe('sample')
  expect(report.notice).toMatch(/^This run searched the sample corpus bundled with Sextant: its sources are invented/)
  // On the pages the corpus name stays (they link it to its page themselves).
  expect(report.sources[0]?.url).toBe(CORPUS_URL)
})

test('an old offline fallback (open sources, corpus pages) says the web was unreachable', () => {
  const report = readStoredReport(storedReport('open sources (GDELT, Wikipedia)', [CORPUS_URL]))
  expect(report.generatedWith).toMatchObject({
    corpus: 'sample',
    offlineFallback: true,
    search:
      'the sample corpus bundled with Sextant (invented articles, not the web), because open sources (GDELT, Wikipedia) could not be reached',
  })
  expect(report.notice).toMatch(/^No web source could be reached/)
})

test('away from the pages, corpus sources and earlier claims link to their pages on this server', () => {
  const report = readStoredReport(storedReport('local corpus', [CORPUS_URL, 'https://news.example/a']), {
    publicUrl: 'https://sextant.example',
  })
  const readable = 'https://sextant.example/corpus/heat-pumps/installer-training-push'
  expect(report.sources.map((source) => source.url)).toEqual([readable, 'https://news.example/a'])
  expect(report.delta.updated[0]?.previous.urls).toEqual([readable, 'https://news.example/a'])
})

test('a report of the web has no notice and is left as it was', () => {
  const report = readStoredReport(storedReport('exa', ['https://news.example/a']), { publicUrl: 'https://s.example' })
  expect(report.notice).toBeUndefined()
  expect(report.generatedWith).toEqual(storedReport('exa', []).generatedWith)
  expect(report.sources[0]?.url).toBe('https://news.example/a')
})

test('integrity stored before a count existed reads that count as 0', () => {
  const old = storedReport('exa', ['https://news.example/a'])
  const { claims, shown, droppedUnsupported, recited } = old.integrity
  const report = readStoredReport({
    ...old,
    integrity: { claims, shown, droppedUnsupported, recited } as Report['integrity'],
  })
  expect(report.integrity).toEqual({ claims, shown, droppedUnsupported, recited, ownWords: 0, offTopic: 0 })
})
