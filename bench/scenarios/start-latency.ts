// How soon a run starts working: POST /api/briefs sent to its first step_started event, by the
// event's server timestamp (when the worker began) and by when the client received it. Runs go one
// at a time so each start is measured on an otherwise idle server. Then a few runs each after a
// quiet spell longer than pg's default idle timeout (10 s), as a monitored topic's run usually comes.
import { setTimeout as sleep } from 'node:timers/promises'
import { ms, percentile } from '#bench/measure.ts'
import { type BenchContext, measureRun, type Scenario } from '#bench/scenario.ts'

const TARGET_MS = 100

export const startLatencyScenario: Scenario = {
  name: 'start latency',
  async run(context) {
    const written: number[] = []
    const received: number[] = []
    for (let i = 0; i < context.sizes.startLatencyRuns; i++) {
      const start = await measureStart(context, `start ${i}`)
      written.push(start.written)
      received.push(start.received)
    }
    const afterQuiet: number[] = []
    for (let i = 0; i < context.sizes.quietStarts; i++) {
      await sleep(context.sizes.quietSeconds * 1000)
      afterQuiet.push((await measureStart(context, `start after quiet ${i}`)).written)
    }
    const p99 = percentile(written, 99)
    const scenario = 'start latency'
    return {
      rows: [
        {
          scenario,
          metric: `POST to first step event written, p50 / p99 (${written.length} runs)`,
          value: `${ms(percentile(written, 50))} / ${ms(p99)}`,
          target: `p99 < ${TARGET_MS} ms`,
          met: p99 < TARGET_MS,
        },
        {
          scenario,
          metric: 'POST to first step event received over SSE, p50 / p99',
          value: `${ms(percentile(received, 50))} / ${ms(percentile(received, 99))}`,
        },
        {
          scenario,
          metric: `after ${context.sizes.quietSeconds} s quiet: POST to first step event written, each`,
          value: afterQuiet.map(ms).join(', '),
        },
      ],
      detail: { writtenMs: written, receivedMs: received, afterQuietMs: afterQuiet },
      failures: [],
    }
  },
}

async function measureStart(context: BenchContext, topic: string): Promise<{ written: number; received: number }> {
  const run = await measureRun(context, { topic: context.topic(topic), depth: 'quick' })
  const first = run.events.find((event) => event.type === 'step_started')
  if (!first) throw new Error(`run ${run.runId} has no step_started event`)
  return { written: first.createdAt - run.postedAt, received: first.receivedAt - run.postedAt }
}
