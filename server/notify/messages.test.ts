import { expect, test } from 'vitest'
import { linkCitations, PART_LIMITS, resultMessage, startedMessage } from '#server/notify/messages.ts'
import { RULES_JUDGED } from '#server/research/report-summary.ts'
import type { Report } from '#server/research/report-types.ts'
import type { RunView } from '#server/runs/contract.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'

const context = { publicUrl: 'https://sextant.example', recurringIntervalSeconds: 7 * 86_400 }
const sources = [
  { n: 1, url: 'https://a.example/one', title: 'One', publishedAt: '2026-11-18T00:00:00Z', snippet: '' },
  { n: 2, url: 'https://b.example/two', title: 'Two & more', publishedAt: null, snippet: '' },
]

function run(overrides: Partial<RunView> = {}, report?: Partial<Report>): RunView {
  return {
    runId: '00000000-0000-4000-8000-000000000001',
    topic: 'Sodium-ion batteries',
    status: 'complete',
    currentStep: null,
    source: 'slack',
    createdAt: '2026-11-21T00:00:00Z',
    finishedAt: '2026-11-21T00:01:00Z',
    brief: BriefSchema.parse({ topic: 'Sodium-ion batteries', depth: 'quick', timeframe: '7d', frameworkId: 'pestle' }),
    report: {
      summary:
        '## Prices fell\n### Key findings\n- Packs cost **60 dollars** per kWh [1].\n- Cells last longer [1, 2].',
      delta: {
        baseline: false,
        since: '2026-11-14T10:00:00Z',
        newFindings: [],
        updated: [],
        contradicted: [],
        confirmed: 0,
        summary: '- Cheaper packs [2].',
      },
      integrity: { claims: 2, shown: 2, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 },
      sources,
      generatedWith: { synthesis: 'stub', synthesisKind: 'model', search: 'exa', plan: 'model' },
      usage: { inputTokens: 0, outputTokens: 0, searchCalls: 1, costDollars: null },
      ...report,
    },
    ...overrides,
  }
}

test('citations link to their sources; unknown numbers and markdown links are left alone', () => {
  expect(linkCitations('A [1]. B [1, 2]. C [9]. D [2024](https://x.example).', sources)).toBe(
    'A [[1](https://a.example/one)]. B [[1](https://a.example/one), [2](https://b.example/two)]. C [9]. D [2024](https://x.example).',
  )
})

test('Slack: the report in mrkdwn, with the delta, sources and a link to the full report', () => {
  const [text, ...rest] = resultMessage('slack', run(), context)
  expect(rest).toEqual([])
  expect(text).toContain('*Research report: Sodium-ion batteries*')
  expect(text).toContain('• Packs cost *60 dollars* per kWh [<https://a.example/one|1>].')
  expect(text).toContain('[<https://a.example/one|1>, <https://b.example/two|2>]')
  expect(text).toContain('*What changed since 2026-11-14*')
  expect(text).toContain('2. <https://b.example/two|Two &amp; more>')
  expect(text).toContain('1. <https://a.example/one|One> (2026-11-18)')
  expect(
    text?.endsWith(
      '<https://sextant.example/dashboard/runs/00000000-0000-4000-8000-000000000001|Full report on Sextant>',
    ),
  ).toBe(true)
  expect(text).not.toContain('##')
})

test('a report of the local corpus says so, on Slack and GitHub, right under its title', () => {
  const notice = 'This run searched the sample corpus bundled with Sextant: its sources are invented articles.'
  for (const channel of ['slack', 'github'] as const) {
    const [text] = resultMessage(channel, run({}, { notice }), context)
    const lines = (text ?? '').split('\n\n')
    expect(lines[1], channel).toBe(`:warning: ${notice}`)
  }
  expect(resultMessage('slack', run(), context)[0]).not.toContain(':warning:')
})

test("Slack links a corpus document's citation to its page at PUBLIC_URL, never to its name", () => {
  const url = 'https://corpus.local/heat-pumps/defrost-cycles.md'
  const corpus = [{ n: 1, url, title: 'Defrost', publishedAt: null, snippet: '', corpus: 'sample' as const }]
  const [text] = resultMessage('slack', run({}, { sources: corpus, summary: 'Defrost costs 5% [1].' }), context)
  expect(text).toContain('[<https://sextant.example/corpus/heat-pumps/defrost-cycles.md|1>]')
})

test('a long report is split into parts within the limit, in order, the link last', () => {
  const findings = Array.from({ length: 120 }, (_, i) => `- Finding number ${i} says something long enough [1].`)
  const parts = resultMessage('slack', run({}, { summary: findings.join('\n') }), context)
  expect(parts.length).toBeGreaterThan(2)
  for (const part of parts) expect(part.length).toBeLessThanOrEqual(PART_LIMITS.slack)
  const all = parts.join('\n')
  expect(all.indexOf('Finding number 0 ')).toBeLessThan(all.indexOf('Finding number 119 '))
  expect(parts.at(-1)).toContain('Full report on Sextant')
})

test('GitHub: markdown as written, mentions defused, a baseline without a delta section', () => {
  const [text] = resultMessage(
    'github',
    run(
      {},
      {
        summary: 'Thanks to @octocat for data [2]. Mail a@b.example.',
        delta: {
          baseline: true,
          since: null,
          newFindings: [],
          updated: [],
          contradicted: [],
          confirmed: 0,
          summary: 'All new.',
        },
      },
    ),
    context,
  )
  expect(text).toContain('**Research report: Sodium-ion batteries**')
  expect(text).toContain('Thanks to @\u200boctocat for data [[2](https://b.example/two)]. Mail a@b[.]example.')
  expect(text).not.toContain('What changed')
  expect(text).toContain('1. [One](https://a.example/one) (2026-11-18)')
})

/** A later run's report: one claim updated, one contradicted, one new, two confirmed. */
function changedRun(text = (label: string) => label) {
  return run(
    {},
    {
      summary: `## Prices fell\n\n### What changed since 2026-11-14\n- **Updated:** Packs cost $80. (was: "Packs cost $90.", seen 2026-11-14) [1]\n\n### Key findings\n- Packs cost $80. [1]`,
      delta: {
        baseline: false,
        since: '2026-11-14T10:00:00Z',
        updated: [
          {
            text: text('Packs cost $80.'),
            quote: 'packs cost $80',
            sources: [1],
            previous: {
              text: text('Packs cost $90.'),
              seenAt: '2026-11-14T10:00:00Z',
              urls: ['https://old.example/p'],
            },
          },
        ],
        contradicted: [
          {
            text: text('The plant will not open.'),
            quote: 'will not open',
            sources: [2],
            previous: { text: text('The plant opens in 2027.'), seenAt: '2026-11-13T10:00:00Z', urls: [] },
          },
        ],
        newFindings: [{ text: text('BYD recycles cells.'), quote: 'recycles cells', sources: [1, 2] }],
        confirmed: 2,
        summary: 'Since 2026-11-14: 1 new, 1 updated, 1 contradicted; 2 claims confirmed.',
      },
    },
  )
}

test('Slack: a later run leads with what changed, the old claim struck through beside the new, and the confirmed count', () => {
  const [text] = resultMessage('slack', changedRun(), context)
  const lines = text?.split('\n') ?? []
  expect(lines.slice(0, 13)).toEqual([
    '*Research report: Sodium-ion batteries*',
    '',
    '*What changed since 2026-11-14*',
    '3 claims changed: 1 updated, 1 contradicted and 1 new; 2 confirmed.',
    '',
    '*Updated*',
    '• ~Packs cost $90.~ (2026-11-14) → Packs cost $80. [<https://a.example/one|1>]',
    '',
    '*Contradicted*',
    '• Previously: The plant opens in 2027. (2026-11-13) → now: The plant will not open. [<https://b.example/two|2>]',
    '',
    '*New*',
    '• BYD recycles cells. [<https://a.example/one|1>, <https://b.example/two|2>]',
  ])
  expect(text).toContain('_2 claims confirmed: memory already held them._\n\n*Prices fell*')
  // What changed is said once: the summary's own block is left out.
  expect(text).not.toContain('was: ')
  expect(text).toContain('• Packs cost $80. [<https://a.example/one|1>]')
})

test('what rules alone compared with memory says so under the counts, on Slack and GitHub; a model judge is not mentioned', () => {
  const judgedBy = (judge: 'model' | 'rules') => {
    const changed = changedRun()
    const report = changed.report as Report
    return { ...changed, report: { ...report, generatedWith: { ...report.generatedWith, judge } } }
  }
  const [slack] = resultMessage('slack', judgedBy('rules'), context)
  expect(slack).toContain(`3 claims changed: 1 updated, 1 contradicted and 1 new; 2 confirmed.\n_${RULES_JUDGED}_`)
  expect(resultMessage('github', judgedBy('rules'), context).join('')).toContain(`_${RULES_JUDGED}_`)
  expect(resultMessage('slack', judgedBy('model'), context).join('')).not.toContain(RULES_JUDGED)
})

test('GitHub: the old claim struck through with ~~, contradictions with what memory held', () => {
  const [text] = resultMessage('github', changedRun(), context)
  expect(text).toContain(
    '**Updated**\n- ~~Packs cost $90.~~ (2026-11-14) → Packs cost $80. [[1](https://a.example/one)]',
  )
  expect(text).toContain(
    '**Contradicted**\n- Previously: The plant opens in 2027. (2026-11-13) → now: The plant will not open. [[2](https://b.example/two)]',
  )
  expect(text).toContain('_2 claims confirmed: memory already held them._')
  expect(text?.indexOf('**What changed since 2026-11-14**')).toBeLessThan(text?.indexOf('## Prices fell') ?? 0)
})

test('failed and cancelled runs say so, with a link', () => {
  const failed = resultMessage(
    'slack',
    run({ status: 'failed', report: undefined, error: { code: 'x', message: 'Exa is down <sorry>' } }),
    context,
  )
  expect(failed).toEqual([
    expect.stringMatching(
      /^:warning: Research on \*Sodium-ion batteries\* failed: Exa is down &lt;sorry&gt; \(<https:.*\|details>\)$/,
    ),
  ])
  expect(resultMessage('github', run({ status: 'cancelled', report: undefined }), context)[0]).toContain(
    'was cancelled',
  )
})

test('the "researching" reply describes the brief and links to the run', () => {
  const [slack] = startedMessage('slack', run({ brief: { ...run().brief, recurring: true } }), context)
  expect(slack).toBe(
    ':mag: Researching *Sodium-ion batteries* (quick, the last 7 days, executive style, PESTLE). ' +
      'The report comes here when it is done; <https://sextant.example/dashboard/runs/00000000-0000-4000-8000-000000000001|follow it live>. ' +
      'It runs again every 7 days; each new report is posted here.',
  )
})

test('the "researching" reply of a series with its own cadence says that cadence, not the default', () => {
  const every = run({ brief: { ...run().brief, recurring: true, every: '6h' } })
  expect(startedMessage('slack', every, context)[0]).toContain('It runs again every 6 hours;')
  const cron = run({ brief: { ...run().brief, recurring: true, cron: '0 9 * * 1', timeZone: 'Europe/Berlin' } })
  expect(startedMessage('github', cron, context)[0]).toContain(
    'It runs again at 09:00, only on Monday, in Europe/Berlin (“0 9 * * 1”);',
  )
  const daily = run({ brief: { ...run().brief, recurring: true, every: '1d' } })
  expect(startedMessage('github', daily, context)[0]).toContain('It runs again every day;')
})

test('the "researching" reply says the budget the mention set', () => {
  const budgeted = run({ brief: { ...run().brief, maxTokens: 50_000, maxCostDollars: 0.5 } })
  expect(startedMessage('github', budgeted, context)[0]).toContain(
    '(quick, the last 7 days, executive style, PESTLE, at most 50,000 tokens and $0.50)',
  )
})

test('a report or topic with nested, reference and raw HTML links carries no link but the sources and the run', () => {
  const hostile = [
    'See [[label](https://a.test)](https://evil.test/phish) and [[[x](https://e1.test)](https://e2.test)](https://e3.test) [1].',
    '[ref][x] <https://evil.test/auto> www.evil.test <a href="//evil.test/html">click</a> [2]',
    '',
    '[x]: https://evil.test/ref',
  ].join('\n')
  const view = run(
    { topic: 'Tidal \u202Epower [now](https://evil.test/topic)' },
    {
      summary: hostile,
      delta: {
        baseline: false,
        since: null,
        newFindings: [],
        updated: [],
        contradicted: [],
        confirmed: 0,
        summary: hostile,
      },
    },
  )
  const allowed = [...sources.map((source) => source.url), `${context.publicUrl}/dashboard/runs/${view.runId}`]
  // The same tricks in the claims a later run updated, contradicted and added, and in what memory held.
  const changed = changedRun((label) => `${label} ${hostile.replaceAll('\n', ' ')} ~strike~ \u202Eback`)
  for (const channel of ['slack', 'github'] as const) {
    const text = [
      ...startedMessage(channel, view, context),
      ...resultMessage(channel, view, context),
      ...resultMessage(channel, changed, context),
    ].join('\n')
    expect(unexpectedTargets(text, allowed, channel === 'slack' ? 'mrkdwn' : 'markdown'), channel).toEqual([])
    expect(text, channel).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    expect(text, channel).toContain('See label and x')
  }
  // GitHub renders raw HTML: it arrives escaped.
  expect(resultMessage('github', view, context)[0]).toContain('&lt; a href="//evil.test/html">click&lt;/a>')
})
