import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { ReportView } from '#app/components/report-view.tsx'
import { RULES_JUDGED } from '#server/research/report-summary.ts'
import type { Report } from '#server/research/report-types.ts'

const SOURCES: Report['sources'] = [
  {
    n: 1,
    url: 'https://news.example/prices-update',
    title: 'Prices',
    publishedAt: null,
    snippet: 'cells cost $80/kWh at the end of 2025',
  },
  { n: 2, url: 'https://news.example/halt', title: 'Halt', publishedAt: null, snippet: 'will not open its plant' },
  { n: 3, url: 'https://news.example/recycling', title: 'Recycling', publishedAt: null, snippet: 'opened a line' },
]

function report(delta: Partial<Report['delta']> = {}, integrity?: Report['integrity']): Report {
  return {
    summary:
      '## Sodium-ion prices fell\n\n### What changed since 2026-11-14\n- **Updated:** Cells cost $80/kWh. (was: "Cells cost $90/kWh.", seen 2026-11-14) [1]\n\n### Key findings\n- Cells cost $80/kWh. [1]',
    delta: {
      baseline: false,
      since: '2026-11-14T10:00:00.000Z',
      newFindings: [{ text: 'BYD opened a recycling line.', quote: 'opened a line', sources: [3] }],
      updated: [
        {
          text: 'Cells cost $80/kWh.',
          quote: 'cells cost $80/kWh at the end of 2025',
          sources: [1],
          previous: {
            text: 'Cells cost $90/kWh.',
            seenAt: '2026-11-14T10:00:00.000Z',
            urls: ['https://news.example/prices-2025'],
          },
        },
      ],
      contradicted: [
        {
          text: 'The plant will not open in 2027.',
          quote: 'will not open its plant',
          sources: [2],
          previous: { text: 'The plant opens in 2027.', seenAt: '2026-11-13T10:00:00.000Z', urls: [] },
        },
      ],
      confirmed: 2,
      summary: 'Since 2026-11-14: 1 new, 1 updated, 1 contradicted; 2 claims confirmed.',
      ...delta,
    },
    integrity: integrity ?? { claims: 6, shown: 5, droppedUnsupported: 1, recited: 0, ownWords: 0, offTopic: 0 },
    sources: SOURCES,
    generatedWith: { synthesis: 'stub', synthesisKind: 'model', search: 'exa', plan: 'model' },
    usage: { inputTokens: 1, outputTokens: 1, searchCalls: 1, costDollars: null },
  }
}

function render(value: Report): string {
  return renderToStaticMarkup(<ReportView report={value} />).replaceAll('<!-- -->', '')
}

test('a later run leads with what changed: the old claim struck through, the new one cited, each with its quote', () => {
  const html = render(report())
  expect(html.indexOf('What changed since 2026-11-14')).toBeLessThan(html.indexOf('Sodium-ion prices fell'))
  expect(html).toContain('3 claims changed: 1 updated, 1 contradicted and 1 new; 2 confirmed.')
  const updated = html.slice(html.indexOf('id="delta-updated"'), html.indexOf('id="delta-contradicted"'))
  expect(updated).toMatch(
    /Was:<\/span> <del>Cells cost \$90\/kWh\.<\/del> <span[^>]*>\(seen 2026-11-14 on <span><a href="https:\/\/news\.example\/prices-2025"/,
  )
  expect(updated).toMatch(/Now:<\/span> Cells cost \$80\/kWh\. <a href="#source-1"/)
  expect(updated).toMatch(
    /<blockquote[^>]*><span class="sr-only">Quote from the source: <\/span>“cells cost \$80\/kWh at the end of 2025”<\/blockquote>/,
  )
  const contradicted = html.slice(html.indexOf('id="delta-contradicted"'), html.indexOf('id="delta-new"'))
  expect(contradicted).toContain(
    'Previously:</span> The plant opens in 2027. <span class="text-sm">(seen 2026-11-13)</span>',
  )
  expect(contradicted).toMatch(/Now:<\/span> The plant will not open in 2027\. <a href="#source-2"/)
  expect(contradicted).toContain('“will not open its plant”')
  const added = html.slice(html.indexOf('id="delta-new"'), html.indexOf('id="report-heading"'))
  expect(added).toContain('BYD opened a recycling line. <a href="#source-3"')
  expect(added).toContain('“opened a line”')
  expect(html).toContain('2 claims confirmed: memory already held them, so they are not listed again.')
  // The summary's own what-changed block is not shown a second time; the rest of it is.
  expect(html).not.toContain('(was: ')
  expect(html).toContain('Key findings')
})

test('each source shows its snippet as a quote, and the footer counts the claims not shown', () => {
  const html = render(report())
  const sources = html.slice(html.indexOf('id="sources-heading"'))
  expect(sources).toContain('“cells cost $80/kWh at the end of 2025”</blockquote>')
  expect(html).toContain('6 claims, 5 shown; 1 not shown because no page read holds its quote and figures.')
  expect(
    render(report({}, { claims: 3, shown: 3, droppedUnsupported: 0, recited: 1, ownWords: 0, offTopic: 0 })),
  ).toContain('3 claims, 3 shown; 1 shown with the page that holds its quote instead of the one cited.')
  expect(
    render(report({}, { claims: 2, shown: 2, droppedUnsupported: 0, recited: 0, ownWords: 1, offTopic: 0 })),
  ).toContain('2 claims, 2 shown; 1 shown in the page&#x27;s own words')
  expect(
    render(report({}, { claims: 5, shown: 3, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 2 })),
  ).toContain('5 claims, 3 shown; 2 not shown because the pages they cite are about something else.')
})

test('a baseline keeps the summary first and offers every finding with its quote behind a disclosure', () => {
  const html = render(
    report({ baseline: true, since: null, updated: [], contradicted: [], confirmed: 0, summary: 'First run.' }),
  )
  expect(html.indexOf('Sodium-ion prices fell')).toBeLessThan(html.indexOf('>Baseline<'))
  expect(html).toMatch(/<details[^>]*><summary[^>]*>The 1 finding and the words that support them<\/summary>/)
  expect(html).toContain('“opened a line”')
  expect(html).not.toContain('<del>')
})

test('a run that changed nothing says so, with the confirmed count from the delta summary', () => {
  const html = render(
    report({
      newFindings: [],
      updated: [],
      contradicted: [],
      confirmed: 2,
      summary:
        'Nothing new since 2026-11-14: the sources read in this run repeat what memory already holds; 2 claims confirmed.',
    }),
  )
  expect(html).toContain('What changed since 2026-11-14')
  expect(html).toContain('Nothing new since 2026-11-14')
  expect(html).toContain('2 claims confirmed.')
})

test('quotes are page text: markup and link syntax stay text, bidi controls are removed', () => {
  const hostile = '<img src=x onerror=alert(1)> [click](https://evil.test) \u202Edesrever'
  const html = render(
    report({
      newFindings: [{ text: 'A claim.', quote: hostile, sources: [3] }],
    }),
  )
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; [click](https://evil.test) desrever')
  expect(html).not.toContain('href="https://evil.test')
  expect(html).not.toMatch(/[\u202A-\u202E]/)
})

test('what changed says when rules alone compared it with memory, and not when a model judged it', () => {
  const judged = (judge: 'model' | 'rules'): Report => {
    const value = report()
    return { ...value, generatedWith: { ...value.generatedWith, judge } }
  }
  expect(render(judged('rules'))).toContain(RULES_JUDGED)
  expect(render(judged('model'))).not.toContain(RULES_JUDGED)
  // A report stored before the judge was recorded says nothing of it.
  expect(render(report())).not.toContain(RULES_JUDGED)
})
