import { expect, test } from 'vitest'
import type { ClaimClass } from '#server/claims/classify.ts'
import type { ReportStyle, SourceForSynthesis, Synthesis } from '#server/providers/types.ts'
import type { ReportClaim } from '#server/research/delta.ts'
import { type BuildReportInput, buildReport } from '#server/research/report.ts'
import { citationNumbers } from '#server/research/report-citations.ts'
import { RULES_JUDGED, summaryWithoutChanges } from '#server/research/report-summary.ts'
import { themeWords } from '#server/research/report-themes.ts'
import { allShown } from '#server/research/report-types.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'

type TestSynthesis = Omit<Synthesis, 'findings'> & { findings: Array<{ text: string; sourceIds: number[] }> }

function source(id: number, text = `Text of source ${id}.`): SourceForSynthesis {
  return {
    id,
    url: `https://example.com/${id}`,
    title: `Source ${id}`,
    publishedDate: `2026-11-${String(id).padStart(2, '0')}`,
    text,
  }
}

/** Findings become claims (their own quotes), new unless `classes` says otherwise. */
function reportInput(
  synthesis: Partial<TestSynthesis>,
  overrides: Partial<BuildReportInput> & {
    classes?: Array<ClaimClass | Omit<ReportClaim, 'text' | 'quote' | 'sourceIds'>>
  } = {},
): BuildReportInput {
  const { classes = [], ...rest } = overrides
  const { findings = [], ...written } = synthesis
  const claims: ReportClaim[] = findings.map((finding, index) => {
    const kind = classes[index] ?? 'new'
    return { ...finding, quote: finding.text, ...(typeof kind === 'string' ? { class: kind } : kind) }
  })
  return {
    synthesis: { headline: 'Batteries got cheaper', gaps: [], ...written },
    claims,
    integrity: allShown(claims.length),
    sources: [1, 2, 3, 4].map((id) => source(id)),
    baseline: true,
    since: null,
    reportStyle: 'executive',
    generatedWith: { synthesis: 'test-model', synthesisKind: 'model', search: 'local corpus', plan: 'model' },
    usage: { inputTokens: 10, outputTokens: 5, searchCalls: 3, costDollars: null },
    ...rest,
  }
}

function urlsCitedBy(line: string, report: ReturnType<typeof buildReport>): string[] {
  return citationNumbers(line).map((n) => report.sources.find((entry) => entry.n === n)?.url ?? 'nowhere')
}

test('citationNumbers reads [n], [n, m] and [n][m], but not a markdown link', () => {
  expect(citationNumbers('A [3]. B [1, 2]. C [4][5]. See [2024](https://example.com).')).toEqual([3, 1, 2, 4, 5])
})

test('a citation of a source that does not exist is removed everywhere, and a finding citing only it is dropped', () => {
  const report = buildReport(
    reportInput({
      headline: 'Prices fell [9] sharply [2]',
      findings: [
        { text: 'Cell prices fell 12% in a year.', sourceIds: [2, 9] },
        { text: 'A claim with no real source.', sourceIds: [9] },
        { text: 'Output doubled [7] at two plants.', sourceIds: [3] },
      ],
      implications: 'Expect cheaper packs [9, 3] and [12][3].',
      gaps: ['Nobody reported recycling [8].'],
    }),
  )
  expect(report.summary).not.toContain('no real source')
  expect(report.summary).toContain('## Prices fell sharply [1]')
  expect(report.summary).toContain('- Output doubled at two plants. [2]')
  expect(report.summary).toContain('Expect cheaper packs [2] and [2].')
  expect(report.summary).toContain('- Nobody reported recycling.')
  expect(report.sources.map((entry) => entry.url)).toEqual(['https://example.com/2', 'https://example.com/3'])
  expect(report.delta.newFindings.map(({ text, sources }) => ({ text, sources }))).toEqual([
    { text: 'Cell prices fell 12% in a year.', sources: [1] },
    { text: 'Output doubled at two plants.', sources: [2] },
  ])
})

test('renumbering keeps each citation pointing at the URL the synthesis cited', () => {
  const report = buildReport(
    reportInput({
      findings: [
        { text: 'Sodium cells entered production.', sourceIds: [4] },
        { text: 'Lithium prices fell.', sourceIds: [2, 4] },
      ],
    }),
  )
  const lines = report.summary.split('\n')
  const sodium = lines.find((line) => line.includes('Sodium')) ?? ''
  const lithium = lines.find((line) => line.includes('Lithium')) ?? ''
  expect(urlsCitedBy(sodium, report)).toEqual(['https://example.com/4'])
  expect(urlsCitedBy(lithium, report)).toEqual(['https://example.com/2', 'https://example.com/4'])
  expect(report.sources.map((entry) => entry.n)).toEqual([1, 2])
})

test('only cited sources are listed, with the supporting quote (cut at a word) and the published date', () => {
  const long = `${'Solid electrolytes '.repeat(30)}end`
  const input = reportInput(
    { findings: [{ text: 'Solid electrolytes matter.', sourceIds: [3] }] },
    { sources: [source(1), source(2), source(3, long)] },
  )
  const report = buildReport({ ...input, claims: input.claims.map((claim) => ({ ...claim, quote: long })) })
  expect(report.sources).toHaveLength(1)
  const [listed] = report.sources
  expect(listed?.url).toBe('https://example.com/3')
  expect(listed?.publishedAt).toBe('2026-11-03')
  expect(listed?.snippet.length).toBeLessThanOrEqual(401)
  // Cut after a whole word: the kept text is a prefix of the quote that ends where a word ends.
  expect(listed?.snippet).toMatch(/(Solid|electrolytes)…$/)
  expect(long.startsWith(`${listed?.snippet.slice(0, -1)} `)).toBe(true)
})

test('executive style: headline, key findings with citations, implications', () => {
  const report = buildReport(
    reportInput({
      findings: [{ text: 'Cell prices fell.', sourceIds: [1] }],
      implications: 'Pack makers gain margin [1].',
    }),
  )
  expect(report.summary).toBe(
    '## Batteries got cheaper\n\n### Key findings\n- Cell prices fell. [1]\n\n### Implications\nPack makers gain margin [1].',
  )
})

test('links a model writes (nested, reference-style, autolinks, to a source too) are text in the report', () => {
  const report = buildReport(
    reportInput(
      {
        headline: 'Read [[this](https://a.test)](https://evil.test/phish)',
        findings: [
          { text: 'Prices fell, see [[[x](https://e1.test)](https://e2.test)](https://e3.test) [1].', sourceIds: [1] },
          { text: `Output rose, per [the source](${source(2).url}) and <https://evil.test> [2].`, sourceIds: [2] },
        ],
        implications: 'Details [here][1].\n\n[1]: https://evil.test/ref',
      },
      { baseline: false, since: '2026-11-01T00:00:00Z', topic: 'Tidal [power](https://evil.test)' },
    ),
  )
  for (const text of [report.summary, report.delta.summary, ...report.delta.newFindings.map((f) => f.text)]) {
    expect(text).not.toMatch(/\]\(|https?:\/\/|\]:/)
  }
  expect(report.summary).toContain('## Read this')
  expect(report.summary).toContain('- Prices fell, see x. [1]')
  expect(report.summary).toContain('- Output rose, per the source and https[:]//evil[.]test. [2]')
  expect(report.summary).toContain('[1] : https[:]//evil[.]test/ref')
  expect(report.sources.map((entry) => entry.url)).toEqual([source(1).url, source(2).url])
})

test('bullet style groups findings under the word they share, or one Findings list when few', () => {
  const findings = [
    { text: 'Sodium cells entered production in China.', sourceIds: [1] },
    { text: 'Sodium cells cost less than lithium ones.', sourceIds: [2] },
    { text: 'Recycling plants opened in Europe.', sourceIds: [3] },
    { text: 'Recycling rules tightened in Europe.', sourceIds: [4] },
    { text: 'A startup raised money.', sourceIds: [1] },
  ]
  const grouped = buildReport(reportInput({ findings }, { reportStyle: 'bullet', topic: 'battery market' }))
  expect(grouped.summary).toMatch(/^## Batteries got cheaper\n\n### Sodium\n- Sodium cells entered/)
  expect(grouped.summary).toContain('### Other findings\n- A startup raised money. [')
  expect(grouped.summary).toContain('### Recycling\n- Recycling plants opened in Europe. [3]\n- Recycling rules')
  expect(grouped.summary.match(/^### /gm)).toHaveLength(3)

  const small = buildReport(reportInput({ findings: findings.slice(0, 2) }, { reportStyle: 'bullet' }))
  expect(small.summary).toBe(
    '## Batteries got cheaper\n\n### Findings\n- Sodium cells entered production in China. [1]\n- Sodium cells cost less than lithium ones. [2]',
  )
})

test('executive style without implications has no Implications section', () => {
  const report = buildReport(reportInput({ findings: [{ text: 'Cell prices fell.', sourceIds: [1] }] }))
  expect(report.summary).toBe('## Batteries got cheaper\n\n### Key findings\n- Cell prices fell. [1]')
})

test('theme words are content words: no function, number or time words, compounds kept whole', () => {
  const words = themeWords('Now two air-source heat pumps [3] cut 2.9 kW bills in 2026, as one year ago, says the UK.')
  expect(words.map(({ term }) => term)).toEqual(['air-source', 'heat', 'pump', 'cut', 'bill'])
  expect(words.find(({ term }) => term === 'pump')?.word).toBe('pumps')
  // Nor quantifiers: two findings that both say "many" or "an average of" share no theme.
  expect(
    themeWords('Many installers, several makers and a lot of owners like it, fewer than ever, on average.').map(
      ({ term }) => term,
    ),
  ).toEqual(['installer', 'maker', 'owner'])
  // The topic's words, and compounds made only of them, are excluded.
  const excluded = new Set(['cold', 'climate', 'heat', 'pump'])
  expect(themeWords('Cold-climate heat pumps need heat-loss sums.', excluded).map(({ term }) => term)).toEqual([
    'need',
    'heat-loss',
    'sum',
  ])
})

test('bullet style never groups findings under a function, time or number word', () => {
  const findings = [
    { text: 'Sodium cells are now made in 2026 in China.', sourceIds: [1] },
    { text: 'Lithium prices now fall every year since 2026.', sourceIds: [2] },
    { text: 'Recycling plants opened two years ago.', sourceIds: [3] },
    { text: 'Recycling rules tightened one year ago.', sourceIds: [4] },
    { text: 'A startup raised money now.', sourceIds: [1] },
  ]
  const report = buildReport(reportInput({ findings }, { reportStyle: 'bullet', topic: 'battery market' }))
  expect(report.summary.match(/^### .+$/gm)).toEqual(['### Recycling', '### Other findings'])
})

test('memo style: To/From/Subject block, background, findings, recommendation', () => {
  const report = buildReport(
    reportInput(
      { findings: [{ text: 'Cell prices fell.', sourceIds: [1] }], implications: 'Renegotiate supply [1].' },
      { reportStyle: 'memo', topic: 'Battery prices' },
    ),
  )
  expect(report.summary).toMatch(/^\*\*To:\*\* .+ {2}\n\*\*From:\*\* Sextant {2}\n\*\*Subject:\*\* Battery prices\n\n/)
  expect(report.summary).toContain('### Background\nBatteries got cheaper\n\nThis run read 4 new sources')
  expect(report.summary).toContain('### Findings\n- Cell prices fell. [1]')
  expect(report.summary).toContain('### Recommendation\nRenegotiate supply [1].')
})

test('framework style: one section per framework section in order, matched by title, empty ones say so', () => {
  const framework = findFramework('rice')
  const report = buildReport(
    reportInput(
      {
        findings: [
          { text: 'Ten million users.', sourceIds: [2] },
          { text: 'Costs fell a third.', sourceIds: [3] },
        ],
        sections: [
          { title: 'impact', body: 'Costs fell a third [3][4].' },
          { title: 'REACH', body: 'Ten million users [2].' },
        ],
        gaps: ['How much effort does adoption take?'],
      },
      { reportStyle: 'framework', framework },
    ),
  )
  expect(report.summary).toBe(
    [
      '## RICE prioritization',
      'Batteries got cheaper',
      '### Reach\nTen million users [1].',
      '### Impact\nCosts fell a third [2].',
      "### Confidence\nNo evidence in this run's sources.",
      "### Effort\nNo evidence in this run's sources.",
      '### Open questions\n- How much effort does adoption take?',
    ].join('\n\n'),
  )
  expect(report.sources.map((entry) => entry.url)).toEqual(['https://example.com/2', 'https://example.com/3'])
})

test('a baseline delta holds every finding and says it is the first run', () => {
  const report = buildReport(
    reportInput({
      findings: [
        { text: 'Cell prices fell.', sourceIds: [1] },
        { text: 'Output doubled.', sourceIds: [2] },
      ],
    }),
  )
  expect(report.delta.baseline).toBe(true)
  expect(report.delta.since).toBeNull()
  expect(report.delta.newFindings).toHaveLength(2)
  expect(report.delta.summary).toContain('First run on this topic (baseline): 2 findings')
})

const PREVIOUS = {
  text: 'Cell prices were $90/kWh.',
  seenAt: '2026-10-20T08:00:00.000Z',
  urls: ['https://old.example/a'],
}

test('a later run reports what changed, the summary leads with it, and confirmed claims are only counted', () => {
  const report = buildReport(
    reportInput(
      {
        findings: [
          { text: 'Cell prices fell 12% in 2026.', sourceIds: [1] },
          { text: 'Output doubled at the Nevada plant.', sourceIds: [3] },
          { text: 'Cells now cost $80/kWh.', sourceIds: [2] },
          { text: 'The Ohio plant did not open.', sourceIds: [4] },
        ],
      },
      {
        baseline: false,
        since: '2026-11-01T09:30:00.000Z',
        classes: [
          'confirmed',
          'new',
          { class: 'updated', previous: PREVIOUS },
          { class: 'contradicted', previous: { ...PREVIOUS, text: 'The Ohio plant opened.' } },
        ],
      },
    ),
  )
  expect(report.delta.since).toBe('2026-11-01T09:30:00.000Z')
  expect(report.delta.newFindings.map((claim) => claim.text)).toEqual(['Output doubled at the Nevada plant.'])
  expect(urlsCitedBy(`[${report.delta.newFindings[0]?.sources[0]}]`, report)).toEqual(['https://example.com/3'])
  expect(report.delta.updated).toEqual([
    { text: 'Cells now cost $80/kWh.', quote: 'Cells now cost $80/kWh.', sources: [1], previous: PREVIOUS },
  ])
  expect(report.delta.contradicted.map((claim) => claim.previous.text)).toEqual(['The Ohio plant opened.'])
  expect(report.delta.confirmed).toBe(1)
  expect(report.delta.summary.split('\n')[0]).toBe(
    'Since 2026-11-01: 1 new, 1 updated, 1 contradicted; 1 claim confirmed.',
  )
  expect(report.delta.summary).toContain(
    '- **Updated:** Cells now cost $80/kWh. (was: "Cell prices were $90/kWh.", seen 2026-10-20) [1]',
  )
  // The summary opens with the changes, right under its headline.
  expect(report.summary.split('\n\n').slice(0, 2)).toEqual([
    '## Batteries got cheaper',
    expect.stringMatching(/^### What changed since 2026-11-01\n- \*\*Updated:\*\* Cells now cost/),
  ])
  expect(urlsCitedBy(report.delta.summary.split('\n')[1] ?? '', report)).toEqual(['https://example.com/2'])
})

test('what changed says so when rules alone compared it with memory, and not when a model judged it', () => {
  const input = (judge: 'model' | 'rules') =>
    reportInput(
      { findings: [{ text: 'Cells now cost $80/kWh.', sourceIds: [2] }] },
      {
        baseline: false,
        since: '2026-11-01T09:30:00.000Z',
        classes: [{ class: 'updated', previous: PREVIOUS }],
        generatedWith: { synthesis: 'extractive', synthesisKind: 'extractive', search: 'exa', plan: 'fallback', judge },
      },
    )
  const rules = buildReport(input('rules'))
  expect(rules.delta.summary.split('\n')[0]).toBe(`Since 2026-11-01: 1 updated. ${RULES_JUDGED}`)
  const block = rules.summary.split('\n\n')[1] ?? ''
  expect(block.split('\n').slice(0, 3)).toEqual([
    '### What changed since 2026-11-01',
    `_${RULES_JUDGED}_`,
    expect.stringMatching(/^- \*\*Updated:\*\* Cells now cost/),
  ])
  // Surfaces that show the delta's lists take the block out whole, the caveat with it.
  expect(summaryWithoutChanges(rules.summary)).not.toContain(RULES_JUDGED)
  const model = buildReport(input('model'))
  expect(model.summary).not.toContain(RULES_JUDGED)
  expect(model.delta.summary).not.toContain(RULES_JUDGED)
  // A baseline compares nothing: nothing to say.
  expect(buildReport({ ...input('rules'), baseline: true, since: null }).summary).not.toContain(RULES_JUDGED)
})

test('a run whose claims memory already holds says nothing is new and counts them', () => {
  const report = buildReport(
    reportInput(
      { findings: [{ text: 'In 2026 cell prices fell 12%.', sourceIds: [1] }] },
      { baseline: false, since: '2026-11-01T09:30:00.000Z', classes: ['confirmed'] },
    ),
  )
  expect(report.delta.newFindings).toEqual([])
  expect(report.delta.summary).toBe(
    'Nothing new since 2026-11-01: the sources read in this run repeat what memory already holds; 1 claim confirmed.',
  )
  expect(report.summary).not.toContain('What changed')
})

test('free text may cite only pages that hold a shown claim, and a source shows its supporting quote', () => {
  const report = buildReport(
    reportInput(
      { findings: [{ text: 'Cell prices fell.', sourceIds: [1] }], implications: 'Margins grow [1][2].' },
      { sources: [source(1, 'Long page. Cell prices fell. More text.'), source(2)] },
    ),
  )
  expect(report.summary).toContain('Margins grow [1].')
  expect(report.sources).toEqual([expect.objectContaining({ n: 1, snippet: 'Cell prices fell.' })])
})

// A small seeded PRNG (mulberry32) so a failing case can be replayed.
function prng(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

test('property: every [n] in summary and delta points at a listed source, for 200 random inputs', () => {
  const random = prng(20261101)
  const int = (max: number) => Math.floor(random() * max)
  const pickOne = <T>(values: readonly T[]): T => values[int(values.length)] as T
  const words = ['cells', 'prices', 'sodium', 'recycling', 'plants', 'europe', 'output', 'margin', 'grid', 'policy']
  const marker = () =>
    pickOne([`[${int(12)}]`, `[${int(12)}, ${int(12)}]`, `[${int(12)}][${int(12)}]`, `[${int(12)},${int(12)}]`])
  const sentence = () =>
    `${Array.from({ length: 2 + int(6) }, () => pickOne(words)).join(' ')}${random() < 0.6 ? ` ${marker()}` : ''}.`
  const styles: ReportStyle[] = ['executive', 'bullet', 'memo', 'framework']

  for (let index = 0; index < 200; index += 1) {
    const ids = [...new Set(Array.from({ length: int(7) }, () => 1 + int(9)))]
    const framework = random() < 0.7 ? findFramework(pickOne(['rice', 'pestle', 'blue-ocean'])) : undefined
    const findings = Array.from({ length: int(9) }, () => ({
      text: sentence(),
      sourceIds: Array.from({ length: int(4) }, () => int(12)),
    }))
    const input = reportInput(
      {
        headline: sentence(),
        findings,
        sections: (framework?.sections ?? ['Extra']).map((title) => ({ title, body: `${sentence()} ${sentence()}` })),
        implications: random() < 0.5 ? sentence() : undefined,
        gaps: random() < 0.5 ? [sentence()] : [],
      },
      {
        sources: ids.map((id) => source(id)),
        reportStyle: pickOne(styles),
        framework,
        baseline: random() < 0.4,
        since: '2026-10-01T00:00:00.000Z',
        classes: findings.map(() => pickOne(['new', 'confirmed', { class: 'updated', previous: PREVIOUS }] as const)),
      },
    )
    const report = buildReport(input)
    const count = report.sources.length
    const context = `case ${index}: ${JSON.stringify(input.synthesis)}`
    expect(
      report.sources.map((entry) => entry.n),
      context,
    ).toEqual(Array.from({ length: count }, (_, n) => n + 1))
    for (const n of [...citationNumbers(report.summary), ...citationNumbers(report.delta.summary)]) {
      expect(n, context).toBeGreaterThanOrEqual(1)
      expect(n, context).toBeLessThanOrEqual(count)
    }
    for (const finding of report.delta.newFindings) {
      expect(finding.sources.length, context).toBeGreaterThan(0)
      for (const n of finding.sources) expect(n >= 1 && n <= count, context).toBe(true)
    }
    // Every listed source is one this run read, and is cited somewhere.
    const cited = new Set([
      ...citationNumbers(report.summary),
      ...citationNumbers(report.delta.summary),
      ...[...report.delta.newFindings, ...report.delta.updated].flatMap((finding) => finding.sources),
    ])
    for (const entry of report.sources) {
      expect(
        ids.map((id) => `https://example.com/${id}`),
        context,
      ).toContain(entry.url)
      expect(cited.has(entry.n), context).toBe(true)
    }
  }
})

test("when the check shows none of the writer's claims, the headline says so and the writer's prose goes", () => {
  const dropped = (integrity: Partial<ReturnType<typeof allShown>>, style: ReportStyle = 'executive') =>
    buildReport(
      reportInput(
        {
          headline: 'Quantum computers now correct their own errors',
          implications: 'Quantum computers will break encryption by 2027.',
          sections: [{ title: 'Strengths', body: 'Quantum computers correct errors at scale.' }],
        },
        {
          integrity: { ...allShown(0), ...integrity },
          reportStyle: style,
          ...(style === 'framework' ? { framework: findFramework('swot') } : {}),
        },
      ),
    )
  const both = dropped({ claims: 3, droppedUnsupported: 1, offTopic: 2 })
  expect(both.summary.split('\n')[0]).toBe(
    "## None of this run's 3 claims could be shown: 2 cited only pages about something else, 1 was not supported by the pages cited",
  )
  expect(JSON.stringify(both)).not.toContain('Quantum computers')
  expect(dropped({ claims: 1, offTopic: 1 }).summary.split('\n')[0]).toBe(
    "## This run's one claim could not be shown: it cited only pages about something else",
  )
  // Nor does its prose stay, in any style: nothing shown backs it.
  for (const style of ['executive', 'memo', 'framework'] as const) {
    expect(dropped({ claims: 2, offTopic: 2 }, style).summary, style).not.toContain('Quantum computers')
  }
  // A writer that claimed nothing keeps its headline ("Nothing new was found") and its prose.
  const none = dropped({ claims: 0 })
  expect(none.summary.split('\n')[0]).toBe('## Quantum computers now correct their own errors')
  expect(none.summary).toContain('Quantum computers will break encryption by 2027.')
})

test('a new claim the rules could not tell from one memory held is shown with it, in the delta and the summary', () => {
  const held = { ...PREVIOUS, text: 'Lawmakers approved the $300 million loan.' }
  const report = buildReport(
    reportInput(
      { findings: [{ text: 'The council voted down the $300 million loan.', sourceIds: [2] }] },
      { baseline: false, since: '2026-11-01T09:30:00.000Z', classes: [{ class: 'new', memoryHeld: held }] },
    ),
  )
  expect(report.delta.newFindings).toEqual([
    {
      text: 'The council voted down the $300 million loan.',
      quote: 'The council voted down the $300 million loan.',
      sources: [1],
      memoryHeld: held,
    },
  ])
  expect(report.delta.confirmed).toBe(0)
  expect(report.summary).toContain(
    '- The council voted down the $300 million loan. (memory held: "Lawmakers approved the $300 million loan.", seen 2026-10-20) [1]',
  )
})
