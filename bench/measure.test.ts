import { expect, test } from 'vitest'
import {
  criticalPath,
  formatComparison,
  formatTable,
  gapMedians,
  nominalCriticalPath,
  overheadBreakdown,
  type ProviderCall,
  parseTable,
  percentile,
} from '#bench/measure.ts'

const model = (startedAt: number, ms: number): ProviderCall => ({ kind: 'model', startedAt, endedAt: startedAt + ms })
const search = (startedAt: number, ms: number): ProviderCall => ({ kind: 'search', startedAt, endedAt: startedAt + ms })

test('a quick run: plan, one round of three searches (the slowest counts), synthesis', () => {
  const calls = [model(10, 300), search(320, 200), search(321, 230), search(322, 210), model(560, 300)]
  const path = criticalPath(calls, 3)
  expect(path.ms).toBe(300 + 230 + 300)
  expect(path.phases.map((phase) => `${phase.kind}x${phase.calls}`)).toEqual(['modelx1', 'searchx3', 'modelx1'])
  // In flight: 10-310, 320-551, 560-860.
  expect(path.busyMs).toBe(300 + 231 + 300)
  expect(overheadBreakdown(path, { startedAt: 0, endedAt: 880 })).toEqual({
    beforeMs: 10,
    betweenMs: 10 + 9,
    // Each gap from the end of one phase (its slowest call) to the start of the next.
    gaps: [
      { between: 'model → search', ms: 10 },
      { between: 'search → model', ms: 9 },
    ],
    afterMs: 20,
    // The round took 231 ms where its slowest search took 230.
    insideRoundsMs: 1,
  })
})

test('a deep run: six searches at most three at a time take two waves; the follow-up round is its own phase', () => {
  const round = (at: number, count: number) => Array.from({ length: count }, (_, i) => search(at + i, 200))
  const calls = [model(0, 300), ...round(300, 6), model(720, 300), ...round(1030, 3), model(1240, 300)]
  const path = criticalPath(calls, 3)
  expect(path.ms).toBe(300 + 400 + 300 + 200 + 300)
  expect(path.phases.map((phase) => phase.calls)).toEqual([1, 6, 1, 3, 1])
  expect(nominalCriticalPath('deep', { modelMs: 300, searchMs: 200 })).toBe(1500)
  expect(nominalCriticalPath('quick', { modelMs: 300, searchMs: 200 })).toBe(800)
})

test('calls arriving out of order are sorted; a run without calls has a zero critical path', () => {
  const path = criticalPath([model(700, 100), search(300, 50), model(0, 100)], 3)
  expect(path.phases.map((phase) => phase.kind)).toEqual(['model', 'search', 'model'])
  expect(path.ms).toBe(250)
  expect(criticalPath([], 3)).toEqual({ ms: 0, phases: [], busyMs: 0 })
})

test('percentiles are nearest-rank', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1)
  expect(percentile(values, 50)).toBe(50)
  expect(percentile(values, 99)).toBe(99)
  expect(percentile([5, 1, 3], 50)).toBe(3)
  expect(percentile([7], 99)).toBe(7)
  expect(percentile([], 50)).toBeNaN()
})

test('the table pads columns and says whether each target was met', () => {
  const table = formatTable([
    { scenario: 'overhead quick', metric: 'ratio', value: '1.02', target: '<= 1.05', met: true },
    { scenario: 'start', metric: 'p99', value: '140 ms', target: '< 100 ms', met: false },
    { scenario: 'memory', metric: 'tokens', value: '10 -> 5' },
  ])
  expect(table.split('\n')).toEqual([
    'scenario        metric  value    target',
    '--------------  ------  -------  ---------------',
    'overhead quick  ratio   1.02     <= 1.05 met',
    'start           p99     140 ms   < 100 ms MISSED',
    'memory          tokens  10 -> 5',
  ])
})

test("each gap's median is taken over the runs with the usual phases, in order", () => {
  const gaps = (...ms: number[]) =>
    ms.map((value, i) => ({ between: i % 2 === 0 ? 'model → search' : 'search → model', ms: value }))
  expect(gapMedians([gaps(8, 20), gaps(6, 18), gaps(7, 40), gaps(99)])).toBe(
    'model → search 7.0 ms · search → model 20 ms',
  )
  expect(gapMedians([])).toBe('none')
})

test('a printed table reads back cell for cell, values with two spaces and rows without a target too', () => {
  const rows = [
    {
      scenario: 'overhead quick',
      metric: 'wall / critical path (median of 5; worst 1.134)',
      value: '1.062',
      target: '<= 1.05',
      met: false,
    },
    {
      scenario: 'memory: unchanged web',
      metric: 'searches; results -> new pages',
      value: '9; 72 -> 72  vs  6; 48 -> 0',
    },
    { scenario: 'GET', metric: 'latency p50 / p99', value: '7.0 ms / 19 ms', target: 'p99 < 20 ms', met: true },
  ]
  // The target column as printed: the target and whether it was met, or nothing.
  const printed = ['<= 1.05 MISSED', '', 'p99 < 20 ms met']
  expect(parseTable(formatTable(rows))).toEqual(
    rows.map((row, index) => ({
      scenario: row.scenario,
      metric: row.metric,
      value: row.value,
      target: printed[index],
    })),
  )
  expect(() => parseTable('not a table')).toThrow(/dashed line/)
})

test('paired runs: a metric is matched across runs whatever its numbers, base beside new, with medians', () => {
  const run = (side: 'base' | 'new', ratio: string, worst: string, cpu: string) => ({
    side,
    rows: [
      {
        scenario: 'overhead quick',
        metric: `wall / critical path (median of 5; worst ${worst})`,
        value: ratio,
        target: '',
      },
      { scenario: 'overhead', metric: 'server peak RSS; CPU', value: cpu, target: '' },
      { scenario: 'overhead', metric: 'between, gap by gap', value: 'model → search 8.0 ms', target: '' },
    ],
  })
  const printed = formatComparison([
    run('base', '1.081', '1.134', '1,236 MiB'),
    run('new', '1.062', '1.087', '241 MiB'),
    run('new', '1.054', '1.071', '243 MiB'),
    run('base', '1.117', '1.2', '238 MiB'),
  ])
  expect(printed.split('\n\n')).toEqual([
    [
      'overhead quick · wall / critical path (median of 5; worst 1.134)',
      '  base 1.081  |  1.117   (median 1.081)',
      '  new  1.062  |  1.054   (median 1.054)',
    ].join('\n'),
    [
      'overhead · server peak RSS; CPU',
      '  base 1,236 MiB  |  238 MiB   (median 238)',
      '  new  241 MiB  |  243 MiB   (median 241)',
    ].join('\n'),
    // No leading number: the values alone.
    [
      'overhead · between, gap by gap',
      '  base model → search 8.0 ms  |  model → search 8.0 ms',
      '  new  model → search 8.0 ms  |  model → search 8.0 ms',
    ].join('\n'),
  ])
})
