// The arithmetic of the benchmark, kept pure so it can be unit tested: the providers' critical path
// of a run from the stubs' records, percentiles, and the printed table.
import { DEPTH, SEARCH_CONCURRENCY } from '#server/research/pipeline.ts'

/** One provider call as a stub served it (epoch ms). */
export type ProviderCall = { kind: 'model' | 'search'; startedAt: number; endedAt: number }

export type CriticalPath = {
  /** The shortest time the run could take given the calls it made and how the pipeline orders them. */
  ms: number
  /** The sequential phases: one model call each, or a round of searches. */
  phases: Array<{ kind: ProviderCall['kind']; calls: number; startedAt: number; endedAt: number; ms: number }>
  /** Time at least one provider call was in flight. */
  busyMs: number
}

/**
 * The providers' critical path of one run, from the calls it really made: the pipeline makes its
 * model calls one after another (plan, a deep run's follow-up plan, synthesis), and between them runs
 * rounds of searches at most `concurrency` at a time. Each model call counts its served duration; a
 * round counts the makespan of its served durations scheduled on `concurrency` slots in the order
 * they started (with equal latencies: the slowest search of each wave of `concurrency`).
 */
export function criticalPath(calls: ProviderCall[], concurrency = SEARCH_CONCURRENCY): CriticalPath {
  const sorted = [...calls].sort((a, b) => a.startedAt - b.startedAt)
  const phases: CriticalPath['phases'] = []
  let round: ProviderCall[] = []
  const closeRound = () => {
    if (round.length === 0) return
    const slots = new Array<number>(Math.min(concurrency, round.length)).fill(0)
    for (const call of round) {
      const free = slots.indexOf(Math.min(...slots))
      slots[free] = (slots[free] ?? 0) + (call.endedAt - call.startedAt)
    }
    phases.push({
      kind: 'search',
      calls: round.length,
      startedAt: Math.min(...round.map((call) => call.startedAt)),
      endedAt: Math.max(...round.map((call) => call.endedAt)),
      ms: Math.max(...slots),
    })
    round = []
  }
  for (const call of sorted) {
    if (call.kind === 'search') {
      round.push(call)
      continue
    }
    closeRound()
    phases.push({
      kind: 'model',
      calls: 1,
      startedAt: call.startedAt,
      endedAt: call.endedAt,
      ms: call.endedAt - call.startedAt,
    })
  }
  closeRound()
  return { ms: sum(phases.map((phase) => phase.ms)), phases, busyMs: busyTime(sorted) }
}

/** The critical path the pipeline's shape promises for a depth, if every call took its nominal latency. */
export function nominalCriticalPath(depth: 'quick' | 'deep', latency: { modelMs: number; searchMs: number }): number {
  const { queries, followUpQueries } = DEPTH[depth]
  const rounds = (count: number) => Math.ceil(count / SEARCH_CONCURRENCY)
  const followUp = followUpQueries > 0 ? latency.modelMs + rounds(followUpQueries) * latency.searchMs : 0
  return latency.modelMs + rounds(queries) * latency.searchMs + followUp + latency.modelMs
}

/**
 * Where a run's time outside provider calls went: before the first, between phases (in all, and gap
 * by gap, named by the phases' kinds), after the last.
 */
export function overheadBreakdown(
  path: CriticalPath,
  run: { startedAt: number; endedAt: number },
): {
  beforeMs: number
  betweenMs: number
  gaps: Array<{ between: string; ms: number }>
  afterMs: number
  insideRoundsMs: number
} {
  const first = path.phases[0]
  const last = path.phases.at(-1)
  if (!first || !last) {
    return { beforeMs: run.endedAt - run.startedAt, betweenMs: 0, gaps: [], afterMs: 0, insideRoundsMs: 0 }
  }
  const gaps = path.phases.slice(1).map((phase, i) => {
    const before = path.phases[i] as CriticalPath['phases'][number]
    return { between: `${before.kind} → ${phase.kind}`, ms: phase.startedAt - before.endedAt }
  })
  const betweenMs = sum(gaps.map((gap) => gap.ms))
  // A round's wall time beyond its ideal makespan: waves that started late (e.g. event writes between them).
  const insideRoundsMs = sum(path.phases.map((phase) => phase.endedAt - phase.startedAt - phase.ms))
  return {
    beforeMs: first.startedAt - run.startedAt,
    betweenMs,
    gaps,
    afterMs: run.endedAt - last.endedAt,
    insideRoundsMs,
  }
}

/**
 * Each gap's median over the runs, in order, named by the phases it lies between. Only runs with the
 * usual phases count (a run whose plan fell back has fewer): a gap is compared with its like.
 */
export function gapMedians(runs: Array<Array<{ between: string; ms: number }>>): string {
  const shape = (gaps: Array<{ between: string }>) => gaps.map((gap) => gap.between).join(',')
  const counts = new Map<string, number>()
  for (const gaps of runs) counts.set(shape(gaps), (counts.get(shape(gaps)) ?? 0) + 1)
  const usual = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  const alike = runs.filter((gaps) => shape(gaps) === usual)
  const first = alike[0] ?? []
  if (first.length === 0) return 'none'
  return first.map((gap, i) => `${gap.between} ${ms(median(alike.map((gaps) => gaps[i]?.ms ?? 0)))}`).join(' · ')
}

function busyTime(sorted: ProviderCall[]): number {
  let busy = 0
  let end = Number.NEGATIVE_INFINITY
  for (const call of sorted) {
    if (call.endedAt <= end) continue
    busy += call.endedAt - Math.max(call.startedAt, end)
    end = call.endedAt
  }
  return busy
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number
}

export function median(values: number[]): number {
  return percentile(values, 50)
}

export function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

export type Row = {
  scenario: string
  metric: string
  value: string
  target?: string
  /** Undefined when the row has no target. */
  met?: boolean
}

/** A plain-text table, columns padded to their widest cell. */
export function formatTable(rows: Row[]): string {
  const header = ['scenario', 'metric', 'value', 'target']
  const cells = rows.map((row) => [
    row.scenario,
    row.metric,
    row.value,
    row.target === undefined ? '' : `${row.target} ${row.met ? 'met' : 'MISSED'}`,
  ])
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => cell[column]?.length ?? 0)),
  )
  const line = (cell: string[]) =>
    cell
      .map((text, column) => text.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n')
}

/** A printed row as `parseTable` reads it back: the target column whole (`<= 1.05 MISSED`), or ''. */
export type PrintedRow = { scenario: string; metric: string; value: string; target: string }

/**
 * The rows of a table `formatTable` printed (a results file's `table`, from any commit): each cell
 * is cut at its column's offsets, which the dashed line gives, since a value may hold two spaces.
 */
export function parseTable(table: string): PrintedRow[] {
  const [, dashes, ...lines] = table.split('\n')
  const starts = [...(dashes ?? '').matchAll(/-+/g)].map((match) => match.index)
  if (starts.length !== 4) throw new Error('not a table formatTable printed: its dashed line has no four columns')
  const cell = (line: string, column: number) => line.slice(starts[column], starts[column + 1]).trim()
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => ({ scenario: cell(line, 0), metric: cell(line, 1), value: cell(line, 2), target: cell(line, 3) }))
}

/** One bench run's printed rows, on the code compared against (`base`) or on the code under test. */
export type ComparedRun = { side: 'base' | 'new'; rows: PrintedRow[] }

/**
 * Each metric's values over paired runs, base beside new, in the order the runs were made. A metric
 * is matched by its text with the numbers left out ("median of 5; worst 1.134"), and the median of
 * the values' leading numbers is given where every value of a side has one.
 */
export function formatComparison(runs: ComparedRun[]): string {
  const metrics = new Map<string, { label: string; base: string[]; new: string[] }>()
  for (const run of runs) {
    for (const row of run.rows) {
      const key = `${row.scenario} · ${row.metric.replace(/\d+(?:[.,]\d+)*/g, '#')}`
      const metric = metrics.get(key) ?? { label: `${row.scenario} · ${row.metric}`, base: [], new: [] }
      metric[run.side].push(row.value)
      metrics.set(key, metric)
    }
  }
  const side = (name: string, values: string[]) => {
    const numbers = values.map(leadingNumber)
    const middle = numbers.every((number) => number !== undefined) && numbers.length > 0
    return `  ${name.padEnd(5)}${values.join('  |  ')}${middle ? `   (median ${median(numbers as number[])})` : ''}`
  }
  return [...metrics.values()]
    .map((metric) => [metric.label, side('base', metric.base), side('new', metric.new)].join('\n'))
    .join('\n\n')
}

/** The number a printed value starts with ("2,410", "1.062", "59 ms (45 ms / 14 ms)"), if it does. */
function leadingNumber(value: string): number | undefined {
  const match = /^-?\d[\d,]*(?:\.\d+)?/.exec(value)
  return match ? Number(match[0].replaceAll(',', '')) : undefined
}

export function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : 'n/a'
}

export function seconds(milliseconds: number): string {
  return Number.isFinite(milliseconds) ? `${(milliseconds / 1000).toFixed(1)} s` : 'n/a'
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`
}
