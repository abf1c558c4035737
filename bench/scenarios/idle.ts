// A server with nothing to do, as it is most of the time when every brief sleeps: what it costs in
// CPU anyway (the job system looking for due jobs, its supervision and schedules, connections kept
// alive). `--statements` shows the statements behind it.
import { setTimeout as sleep } from 'node:timers/promises'
import { ms } from '#bench/measure.ts'
import type { Scenario } from '#bench/scenario.ts'

/** Time for what the server's start leaves (its workers' first fetches, a first supervision pass) to settle. */
const SETTLE_MS = 3000

export const idleScenario: Scenario = {
  name: 'idle',
  async run(context) {
    await sleep(SETTLE_MS)
    const before = context.server.cpuMs()
    const started = performance.now()
    await sleep(context.sizes.idleSeconds * 1000)
    const after = context.server.cpuMs()
    const minutes = (performance.now() - started) / 60_000
    const perMinute = (key: 'server' | 'postgres') => (after[key] - before[key]) / minutes
    return {
      rows: [
        {
          scenario: 'idle',
          metric: `CPU per minute with nothing running: server / Postgres (${context.sizes.idleSeconds} s)`,
          value: `${ms(perMinute('server'))} / ${ms(perMinute('postgres'))}`,
        },
      ],
      detail: {
        seconds: minutes * 60,
        cpuMs: { server: after.server - before.server, postgres: after.postgres - before.postgres },
      },
      failures: [],
    }
  },
}
