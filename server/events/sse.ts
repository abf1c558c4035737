// One run's events as Server-Sent Events: what the log already holds after the client's
// Last-Event-ID, then live events from the hub, until the run's final event.
import type express from 'express'
import { z } from 'zod'
import type { EventHub, RunEventLog } from '#server/events/hub.ts'
import { isFinalEvent, type RunEvent } from '#server/vocabulary/runs.ts'

const REPLAY_PAGE = 500

export const EventIdSchema = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number)

/** The id the client has seen: the Last-Event-ID header, or `?lastEventId=` for polyfills; else 0. */
export function parseLastEventId(req: express.Request): number {
  const header = EventIdSchema.safeParse(req.get('last-event-id'))
  if (header.success) return header.data
  const query = EventIdSchema.safeParse(req.query.lastEventId)
  return query.success ? query.data : 0
}

/** Sends the headers of a Server-Sent Events response (unbuffered by proxies) and the retry delay. */
export function beginEventStream(res: express.Response): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  })
  res.flushHeaders()
  res.write('retry: 2000\n\n')
}

function formatEvent(event: RunEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
}

/**
 * Streams until the run's final event has been sent, the client goes away or `signal` aborts;
 * rejects (after ending the response) only when reading the log fails. The caller has already
 * checked access to the run.
 */
export function streamRunEvents(options: {
  hub: EventHub
  /** Where the replay reads the run's events. */
  events: RunEventLog
  req: express.Request
  res: express.Response
  runId: string
  /** Ends the stream from outside (its session logged out, its key revoked). */
  signal?: AbortSignal
  keepAliveMs?: number
}): Promise<void> {
  const { hub, events: eventLog, req, res, runId, signal } = options
  const afterId = parseLastEventId(req)
  return new Promise<void>((resolve, reject) => {
    let lastSentId = afterId
    // Live events wait here while the replay runs; subscribing first means an event appended
    // between the replay's read and the subscription cannot fall through the gap.
    let pending: RunEvent[] | undefined = []
    let keepAlive: NodeJS.Timeout | undefined
    let ended = false
    const subscription = hub.subscribe(runId, (event) => (pending ? pending.push(event) : send(event)), afterId, {
      replaying: true,
    })
    const onAbort = () => end()
    res.on('close', onAbort)
    signal?.addEventListener('abort', onAbort, { once: true })

    function end(error?: unknown) {
      if (ended) return
      ended = true
      clearInterval(keepAlive)
      subscription()
      signal?.removeEventListener('abort', onAbort)
      if (!res.writableEnded) res.end()
      if (error === undefined) resolve()
      else reject(error)
    }

    function send(event: RunEvent) {
      if (ended || event.id <= lastSentId) return
      lastSentId = event.id
      res.write(formatEvent(event))
      if (isFinalEvent(event.type)) end()
    }

    async function start() {
      if (signal?.aborted) return end()
      if (afterId > 0) {
        // EventSource reconnects whenever a stream ends; 204 is the answer that makes it stop.
        const finalId = await eventLog.finalEventId(runId)
        if (finalId !== null && afterId >= finalId) {
          res.status(204)
          return end()
        }
      }
      if (ended) return
      beginEventStream(res)
      keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000)
      for (;;) {
        const events = await eventLog.read(runId, lastSentId, REPLAY_PAGE)
        for (const event of events) send(event)
        if (ended || events.length < REPLAY_PAGE) break
      }
      const buffered = pending ?? []
      pending = undefined
      for (const event of buffered) send(event)
      subscription.caughtUp(lastSentId)
    }

    start().catch(end)
  })
}
