// Live progress, for the web process only (it holds the event hub's LISTEN connection): a run's
// events as they happen, a run's event stream and an account's run list as Server-Sent Events, each
// stream counted against its session's or key's allowance.
import type express from 'express'
import { createAccountRunStreams } from '#server/events/account-stream.ts'
import type { EventHub, RunEventLog } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import type { RunEvent } from '#server/runs/contract.ts'
import type { RunService } from '#server/runs/service.ts'

export function createLiveService(deps: {
  hub: EventHub
  streams: OpenStreams
  /** Where a stream's replay reads a run's events (the runs module's event log). */
  events: RunEventLog
  runs: Pick<RunService, 'dashboard'>
}) {
  const { hub, streams, events } = deps
  const runLists = createAccountRunStreams({ hub, read: (accountId) => deps.runs.dashboard(accountId) })
  return {
    /** Calls `listener` with each new event of the run; returns the unsubscribe. */
    subscribe: (runId: string, listener: (event: RunEvent) => void): (() => void) => hub.subscribe(runId, listener),
    /**
     * Counts a stream against its principal's allowance (a 429 problem past it); the signal aborts
     * when the principal ends (logout, a revoked key).
     */
    admit: (principal: string, res: express.Response): AbortSignal => streams.admit(principal, res),
    /**
     * A run's events (from Last-Event-ID) until its final event; the caller has checked the run is
     * the viewer's.
     */
    streamRun: (options: { req: express.Request; res: express.Response; runId: string; signal?: AbortSignal }) =>
      streamRunEvents({ hub, events, ...options }),
    /** The account's dashboard run list, sent whole whenever one of its runs or series changes. */
    streamRunList: (options: { res: express.Response; accountId: string; signal?: AbortSignal }) =>
      runLists.stream(options),
  }
}

export type LiveService = ReturnType<typeof createLiveService>
