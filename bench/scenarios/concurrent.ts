// Many quick runs started at once: every one must complete, and the makespan (first POST sent to the
// last run's final event received) is compared with the ideal, the nominal critical path of a quick
// run times the number of waves the worker's concurrency allows.
import os from 'node:os'
import { criticalPath, median, ms, nominalCriticalPath, percentile } from '#bench/measure.ts'
import type { Scenario } from '#bench/scenario.ts'

/** Issue 21's targets: the whole of one quick run's CPU, the makespan against the ideal, the start. */
const CPU_PER_RUN_TARGET_MS = 20
const MAKESPAN_TARGET = 2
const START_TARGET_MS = 100

export const concurrentScenario: Scenario = {
  name: 'concurrent runs',
  async run(context) {
    const count = context.sizes.concurrentRuns
    const cpuBefore = context.server.cpuMs()
    const topics = Array.from({ length: count }, (_, i) => context.topic(`concurrent ${i}`))
    const started = await Promise.all(
      topics.map(async (topic) => {
        const post = await context.client.postBrief({ topic, depth: 'quick' })
        return { topic, post, watch: await context.client.watch(post.runId, 120_000) }
      }),
    )
    const failures: string[] = []
    const ended = await Promise.all(
      started.map(async ({ topic, post, watch }) => {
        const events = await watch.done.catch((error: Error) => {
          failures.push(error.message)
          return undefined
        })
        const final = events?.at(-1)
        if (final && final.type !== 'complete') failures.push(`run ${post.runId} ended ${final.type}`)
        const firstStep = events?.find((event) => event.type === 'step_started')
        return { topic, post, final, startMs: firstStep ? firstStep.createdAt - post.postedAt : Number.NaN }
      }),
    )
    const cpuAfter = context.server.cpuMs()
    const cpu = { server: cpuAfter.server - cpuBefore.server, postgres: cpuAfter.postgres - cpuBefore.postgres }
    // On this machine the runs also share its cores: the CPU they need is a floor under the makespan.
    const cores = os.availableParallelism()
    const cpuFloor = (cpu.server + cpu.postgres) / cores
    const cpuPerRun = (cpu.server + cpu.postgres) / count
    const completed = ended.filter((run) => run.final?.type === 'complete')
    const firstPost = Math.min(...ended.map((run) => run.post.postedAt))
    const lastEnd = Math.max(...completed.map((run) => run.final?.receivedAt ?? 0))
    const makespan = lastEnd - firstPost
    const waves = Math.ceil(count / context.workerConcurrency)
    const nominal = nominalCriticalPath('quick', context.latency)
    const ideal = nominal * waves
    const walls = completed.map((run) => (run.final?.receivedAt ?? 0) - run.post.postedAt)
    const paths = await Promise.all(
      completed.map(async (run) => criticalPath(await context.stubs.callsFor(run.topic)).ms),
    )
    const starts = completed.map((run) => run.startMs)
    const scenario = `${count} concurrent`
    return {
      rows: [
        {
          scenario,
          metric: `completed (WORKER_CONCURRENCY ${context.workerConcurrency})`,
          value: `${completed.length} / ${count}`,
          target: 'all',
          met: completed.length === count,
        },
        {
          scenario,
          metric: `makespan / ideal (ideal = ${ms(nominal)} x ceil(${count}/${context.workerConcurrency}))`,
          value: `${ms(makespan)} / ${ms(ideal)} = ${(makespan / ideal).toFixed(2)}`,
          target: `<= ${MAKESPAN_TARGET}`,
          met: makespan / ideal <= MAKESPAN_TARGET,
        },
        {
          scenario,
          metric: `CPU per run: server + Postgres (server / Postgres); floor = total CPU / ${cores} cores`,
          value: `${ms(cpuPerRun)} (${ms(cpu.server / count)} / ${ms(cpu.postgres / count)}); ${ms(cpuFloor)}`,
          target: `<= ${CPU_PER_RUN_TARGET_MS} ms`,
          met: cpuPerRun <= CPU_PER_RUN_TARGET_MS,
        },
        {
          scenario,
          metric: 'POST to first step event written, p50 / p99',
          value: `${ms(percentile(starts, 50))} / ${ms(percentile(starts, 99))}`,
          target: `p99 < ${START_TARGET_MS} ms`,
          met: percentile(starts, 99) < START_TARGET_MS,
        },
        {
          scenario,
          metric: 'run wall p50 / p99; critical path recorded p50 / max',
          value: `${ms(percentile(walls, 50))} / ${ms(percentile(walls, 99))}; ${ms(median(paths))} / ${ms(Math.max(...paths))}`,
        },
      ],
      detail: {
        runs: count,
        completed: completed.length,
        workerConcurrency: context.workerConcurrency,
        makespanMs: makespan,
        cpuMs: cpu,
        cpuFloorMs: cpuFloor,
        idealMs: ideal,
        idealFormula: `nominal quick critical path (${nominal} ms) x ceil(runs / WORKER_CONCURRENCY) = ${nominal} x ${waves}`,
        wallMs: walls,
        startMs: starts,
        criticalPathMs: paths,
      },
      failures,
    }
  },
}
