import { expect, test } from 'vitest'
import type { ReportStyle } from '#server/providers/types.ts'
import { buildReport } from '#server/research/report.ts'
import { summaryWithoutChanges } from '#server/research/report-summary.ts'

function reportOf(reportStyle: ReportStyle, baseline: boolean) {
  const text = 'Cells now cost $80/kWh.'
  return buildReport({
    synthesis: { headline: 'Batteries got cheaper', gaps: ['Who pays?'] },
    claims: [
      {
        text,
        quote: text,
        sourceIds: [1],
        class: baseline ? 'new' : 'updated',
        previous: baseline ? undefined : { text: 'Cells cost $90/kWh.', seenAt: '2026-10-20T00:00:00Z', urls: [] },
      },
    ],
    integrity: { claims: 1, shown: 1, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 },
    sources: [{ id: 1, url: 'https://example.com/1', title: 'One', publishedDate: null, text }],
    baseline,
    since: baseline ? null : '2026-11-01T00:00:00Z',
    reportStyle,
    topic: 'battery prices',
    generatedWith: { synthesis: 'test', synthesisKind: 'model', search: 'test', plan: 'model' },
    usage: { inputTokens: 0, outputTokens: 0, searchCalls: 0, costDollars: null },
  })
}

test("the summary's what-changed block is taken out in every style, and nothing else is", () => {
  for (const style of ['executive', 'bullet', 'memo', 'framework'] as const) {
    const { summary } = reportOf(style, false)
    expect(summary, style).toContain('### What changed since 2026-11-01\n- **Updated:**')
    const without = summaryWithoutChanges(summary)
    expect(without, style).not.toContain('What changed')
    expect(without, style).not.toContain('was: ')
    expect(without, style).toContain('Cells now cost $80/kWh. [1]')
    expect(without, style).toContain('### Open questions\n- Who pays?')
    expect(summary.replace(/### What changed since[^\n]*\n[^\n]*\n\n/, ''), style).toBe(without)
  }
})

test('a summary without the block (a baseline) is unchanged', () => {
  const { summary } = reportOf('executive', true)
  expect(summaryWithoutChanges(summary)).toBe(summary)
})
