// Many clients following one run: every client must get every event, and each event written after
// the client's stream opened is timed from its server timestamp to its arrival at that client.
// (Events written before a client connected arrive as replay; they are checked but not timed.)
import { ms, percentile } from '#bench/measure.ts'
import type { Scenario } from '#bench/scenario.ts'

export const sseFanoutScenario: Scenario = {
  name: 'SSE fan-out',
  async run(context) {
    const clients = context.sizes.sseClients
    // A deep run, so most of its events are written after the streams have opened.
    const { runId } = await context.client.postBrief({ topic: context.topic('fan-out'), depth: 'deep' })
    const watches = await Promise.all(Array.from({ length: clients }, () => context.client.watch(runId)))
    const failures: string[] = []
    const received = await Promise.all(
      watches.map((watch) =>
        watch.done.catch((error: Error) => {
          failures.push(error.message)
          return []
        }),
      ),
    )
    const expected = Math.max(...received.map((events) => events.length))
    const incomplete = received.filter((events) => events.length !== expected || events.at(-1)?.type !== 'complete')
    if (incomplete.length > 0) failures.push(`${incomplete.length} of ${clients} clients missed events of run ${runId}`)
    const delays: number[] = []
    received.forEach((events, client) => {
      const openedAt = watches[client]?.openedAt ?? Number.POSITIVE_INFINITY
      for (const event of events) if (event.createdAt >= openedAt) delays.push(event.receivedAt - event.createdAt)
    })
    const scenario = `SSE fan-out (${clients} clients)`
    return {
      rows: [
        {
          scenario,
          metric: `clients that got all ${expected} events`,
          value: `${clients - incomplete.length} / ${clients}`,
          target: 'all',
          met: incomplete.length === 0,
        },
        {
          scenario,
          metric: `event delivery p50 / p99 / max (${delays.length} live deliveries)`,
          value: `${ms(percentile(delays, 50))} / ${ms(percentile(delays, 99))} / ${ms(Math.max(...delays))}`,
        },
      ],
      detail: {
        runId,
        clients,
        eventsPerClient: expected,
        liveDeliveries: delays.length,
        delayMs: { p50: percentile(delays, 50), p90: percentile(delays, 90), p99: percentile(delays, 99) },
      },
      failures,
    }
  },
}
