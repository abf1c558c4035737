// One run at a time, quick and deep: how much longer a run takes than the provider calls it makes.
// The ratio's denominator is the critical path of the calls the stubs actually served for that run.
import { gapMedians, median, ms, nominalCriticalPath, overheadBreakdown, type Row } from '#bench/measure.ts'
import { type MeasuredRun, measureRun, type Scenario } from '#bench/scenario.ts'

const TARGET_RATIO = 1.05

export const overheadScenario: Scenario = {
  name: 'overhead',
  async run(context) {
    // The first run pays for connections and code paths warming up; it is not counted.
    await measureRun(context, { topic: context.topic('warm-up'), depth: 'quick' })
    const rows: Row[] = []
    const detail: Record<string, unknown> = {}
    for (const depth of ['quick', 'deep'] as const) {
      const count = depth === 'quick' ? context.sizes.overheadQuickRuns : context.sizes.overheadDeepRuns
      const runs: MeasuredRun[] = []
      for (let i = 0; i < count; i++) {
        runs.push(await measureRun(context, { topic: context.topic(`overhead ${depth} ${i}`), depth }))
      }
      context.completedRunId ??= runs[0]?.runId
      const measured = runs.map((run) => ({
        runId: run.runId,
        wallMs: run.wallMs,
        criticalPathMs: run.path.ms,
        providerBusyMs: run.path.busyMs,
        ratio: run.wallMs / run.path.ms,
        phases: run.path.phases.map((phase) => ({ kind: phase.kind, calls: phase.calls, ms: phase.ms })),
        overhead: overheadBreakdown(run.path, { startedAt: run.postedAt, endedAt: run.final.receivedAt }),
        // Milliseconds after the POST was sent: where the time outside provider calls went.
        timeline: [
          ...run.path.phases.map((phase) => ({
            at: round(phase.startedAt - run.postedAt),
            what: `${phase.kind} call${phase.calls > 1 ? `s x${phase.calls}` : ''} until ${round(phase.endedAt - run.postedAt)}`,
          })),
          ...run.events.map((event) => ({
            at: round(event.createdAt - run.postedAt),
            what: `${event.type}${event.step ? ` ${event.step}` : ''} (received ${round(event.receivedAt - run.postedAt)})`,
          })),
        ].sort((a, b) => a.at - b.at),
      }))
      const nominal = nominalCriticalPath(depth, context.latency)
      const ratio = median(measured.map((run) => run.ratio))
      const worst = Math.max(...measured.map((run) => run.ratio))
      const pick = (key: 'beforeMs' | 'betweenMs' | 'afterMs') => median(measured.map((run) => run.overhead[key]))
      const scenario = `overhead ${depth}`
      rows.push(
        {
          scenario,
          metric: `wall / critical path (median of ${count}; worst ${worst.toFixed(3)})`,
          value: ratio.toFixed(3),
          target: `<= ${TARGET_RATIO}`,
          met: ratio <= TARGET_RATIO,
        },
        {
          scenario,
          metric: 'wall; critical path recorded / nominal',
          value: `${ms(median(measured.map((run) => run.wallMs)))}; ${ms(median(measured.map((run) => run.criticalPathMs)))} / ${ms(nominal)}`,
        },
        {
          scenario,
          metric: 'outside provider calls: before first / between / after last',
          value: `${ms(pick('beforeMs'))} / ${ms(pick('betweenMs'))} / ${ms(pick('afterMs'))}`,
        },
        {
          scenario,
          metric: 'between, gap by gap (median)',
          value: gapMedians(measured.map((run) => run.overhead.gaps)),
        },
      )
      detail[depth] = { nominalCriticalPathMs: nominal, medianRatio: ratio, worstRatio: worst, runs: measured }
    }
    return { rows, detail, failures: [] }
  },
}

function round(value: number): number {
  return Math.round(value * 10) / 10
}
