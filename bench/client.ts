// The benchmark's API client: starts runs and follows their event streams, timing every answer and
// every event on the same clock as the stubs (epoch ms with sub-millisecond precision).
import type { Report } from '#server/research/report-types.ts'
import type { BriefInput } from '#server/vocabulary/brief.ts'
import { isFinalEvent } from '#server/vocabulary/runs.ts'
import { openEventStream } from '#test/support/sse-client.ts'

export type ReceivedEvent = {
  id: number
  type: string
  step: string | null
  data: Record<string, unknown>
  /** When the server wrote the event (its database clock, millisecond precision). */
  createdAt: number
  /** When this client parsed it. */
  receivedAt: number
}

export type RunWatch = {
  /** When the stream's response headers arrived: events written after this reach it live. */
  openedAt: number
  events: ReceivedEvent[]
  /** Resolves with every event once the final one (complete, failed, cancelled) has arrived. */
  done: Promise<ReceivedEvent[]>
}

export type RunView = {
  runId: string
  status: string
  createdAt: string
  finishedAt: string | null
  report?: Report
  error?: { code: string; message: string }
}

export function now(): number {
  return performance.timeOrigin + performance.now()
}

/**
 * A wall-clock time (Postgres's now() on an event) on the clock `now` reads. That one is the wall
 * clock at this process's start plus the monotonic clock, so the two drift apart when the system
 * adjusts its clock: on 2026-11-28 by about 30 ms within one benchmark, enough to make an event
 * look written before its POST was sent. The offset is taken when the time is read.
 */
export function onOurClock(wallMs: number): number {
  return wallMs + (now() - Date.now())
}

export function createClient(url: string, apiKey: string) {
  const auth = { Authorization: `Bearer ${apiKey}` }
  return {
    url,
    apiKey,
    async postBrief(brief: BriefInput): Promise<{ runId: string; postedAt: number; answeredAt: number }> {
      const postedAt = now()
      const response = await fetch(`${url}/api/briefs`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(brief),
      })
      const answeredAt = now()
      const body = (await response.json()) as { runId?: string }
      if (response.status !== 202 || !body.runId) {
        throw new Error(`POST /api/briefs answered ${response.status}: ${JSON.stringify(body)}`)
      }
      return { runId: body.runId, postedAt, answeredAt }
    },

    async getRun(runId: string): Promise<RunView> {
      const response = await fetch(`${url}/api/briefs/${runId}`, { headers: auth })
      if (!response.ok) throw new Error(`GET /api/briefs/${runId} answered ${response.status}`)
      return (await response.json()) as RunView
    },

    async watch(runId: string, timeoutMs = 60_000): Promise<RunWatch> {
      const events: ReceivedEvent[] = []
      let finished: (() => void) | undefined
      const final = new Promise<void>((resolve) => (finished = resolve))
      const stream = await openEventStream(`${url}/api/briefs/${runId}/events`, auth, {
        onMessage(message) {
          const receivedAt = now()
          const event = JSON.parse(message.data) as Omit<ReceivedEvent, 'createdAt' | 'receivedAt'> & {
            createdAt: string
          }
          events.push({ ...event, createdAt: onOurClock(Date.parse(event.createdAt)), receivedAt })
          if (isFinalEvent(event.type)) finished?.()
        },
      })
      const openedAt = now()
      if (stream.response.status !== 200) {
        stream.abort()
        throw new Error(`GET /api/briefs/${runId}/events answered ${stream.response.status}`)
      }
      const done = (async () => {
        const deadline = Date.now() + timeoutMs
        let timer: NodeJS.Timeout | undefined
        const check = new Promise<void>((_, reject) => {
          timer = setInterval(() => {
            if (stream.closed && !events.some((event) => isFinalEvent(event.type))) {
              reject(new Error(`the event stream of run ${runId} ended before its final event`))
            } else if (Date.now() > deadline) {
              reject(new Error(`run ${runId} did not finish within ${timeoutMs / 1000} s`))
            }
          }, 100)
        })
        try {
          await Promise.race([final, check])
          return events
        } finally {
          clearInterval(timer)
          stream.abort()
        }
      })()
      done.catch(() => {}) // the caller awaits it; an unhandled rejection before then must not crash the run
      return { openedAt, events, done }
    },
  }
}

export type BenchClient = ReturnType<typeof createClient>
