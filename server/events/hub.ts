// One LISTEN connection per process, fanning run events out to in-process subscribers (SSE streams),
// along with changes to accounts' run lists and the ends of sessions and keys whose streams must close.
// A notification carries its event (sealed): a subscriber that is in sync gets it from the payload.
// Any other reads the rows, after each subscription's last delivered id, so a subscriber gets every
// event once and in order even when notifications arrive in bursts, carry too much to hold the
// event, or were lost while the connection was down.
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { STREAMS_ENDED_CHANNEL } from '#server/events/stream-principals.ts'
import type { Logger } from '#server/logger.ts'
import {
  ACCOUNT_CHANNEL,
  type EventNotification,
  parseEventNotification,
  RUN_EVENTS_CHANNEL,
} from '#server/repositories/notifications.ts'
import type { RunEvent } from '#server/vocabulary/runs.ts'

/**
 * The run event log as the hub and the event streams read it: the runs module's
 * (server/runs/event-log.ts), handed in by the composer (a port, decision 063).
 */
export type RunEventLog = {
  /** The run's events with an id above `afterId`, oldest first, at most `limit`, their data opened. */
  read(runId: string, afterId: number, limit: number): Promise<RunEvent[]>
  /** The event a notification carries, its data opened; undefined when it must be read instead. */
  notified(notification: EventNotification): RunEvent | undefined
  /** The id of the run's final event, or null while the run is still going. */
  finalEventId(runId: string): Promise<number | null>
}

export type EventHub = {
  /**
   * Calls `onEvent` with each event of the run whose id is above `afterId`, in id order, once. The
   * hub reads when it hears of new events (and after reconnecting), not on subscribe: replaying what
   * already exists is the caller's job. Returns the unsubscribe function, whose `caughtUp` the
   * caller calls when its replay (read after subscribing) has reached an id. With `replaying`, the
   * caller promises that call: what is notified meanwhile waits for it, and the hub reads the table
   * then only if the replay did not reach it (instead of reading at once, beside the replay).
   */
  subscribe(
    runId: string,
    onEvent: (event: RunEvent) => void,
    afterId?: number,
    options?: { replaying?: boolean },
  ): RunSubscription
  /**
   * Calls `onChange` when something in the account's run list may have changed: with the run's id,
   * or with null when the change is not one run's (a series paused) or notifications may have been
   * missed (the listen connection came back). Returns the unsubscribe function.
   */
  subscribeAccount(accountId: string, onChange: (runId: string | null) => void): () => void
  /**
   * Calls `onEnded` with each principal whose streams must close (a session logged out, a key
   * revoked; see server/events/stream-principals.ts), or with null when announcements may have been
   * missed (the listen connection came back). Returns the unsubscribe function.
   */
  subscribeStreamsEnded(onEnded: (principal: string | null) => void): () => void
  subscriberCount(): number
  close(): Promise<void>
}

/** Unsubscribes when called. */
export type RunSubscription = (() => void) & {
  /**
   * Says that a read of the run begun after subscribing has delivered every event up to `lastId`:
   * the subscriber is then in sync, and the next notification is delivered from its payload
   * instead of sending the hub to the table for what the replay already read.
   */
  caughtUp(lastId: number): void
}

type Subscription = {
  onEvent: (event: RunEvent) => void
  lastId: number
  /**
   * It has every event of its run whose notification this hub has heard, and will hear the rest: a
   * read of the run begun since it subscribed, while the listen connection was up, has finished
   * with that connection still up.
   */
  synced: boolean
  /** Its caller's replay is under way (it will call caughtUp). */
  replaying: boolean
  /** The highest event id notified while it was replaying. */
  heard: number
}

const PAGE_SIZE = 500
const MAX_RECONNECT_DELAY_MS = 30_000
const READ_RETRY_MS = 1000

export async function createEventHub(options: {
  connectionString: string
  /** Where the hub reads the events a notification does not carry. */
  events: RunEventLog
  log: Logger
  /** The first wait before reconnecting; it doubles (with jitter) up to 30 s. */
  reconnectDelayMs?: number
}): Promise<EventHub> {
  const { connectionString, events: eventLog, log } = options
  const reconnectDelayMs = options.reconnectDelayMs ?? 250
  const subscriptions = new Map<string, Set<Subscription>>()
  const accountSubscriptions = new Map<string, Set<(runId: string | null) => void>>()
  const endedSubscriptions = new Set<(principal: string | null) => void>()
  // Runs being read right now; `again` records a notification that arrived during the read.
  const readers = new Map<string, { again: boolean }>()
  const stopping = new AbortController()
  let client: pg.Client | undefined
  // Counts lost listen connections: a read can vouch for no notification sent while nobody listened.
  let losses = 0

  /** A token for stillListening: a read begun now can bring subscribers in sync only if it holds. */
  function listeningSince(): number | undefined {
    return client !== undefined ? losses : undefined
  }

  /** Someone has listened since `token` was taken, without a break. */
  function stillListening(token: number | undefined): boolean {
    return client !== undefined && token === losses
  }

  function onNotification(message: pg.Notification) {
    const payload = message.payload ?? ''
    if (message.channel === RUN_EVENTS_CHANNEL) return onRunEvent(payload)
    const [id, runId] = payload.split(':')
    if (!id) return
    if (message.channel === ACCOUNT_CHANNEL) notifyAccount(id, runId ?? null)
    if (message.channel === STREAMS_ENDED_CHANNEL) notifyEnded(payload)
  }

  /**
   * A notification carries its event. A subscriber in sync gets it straight from the payload: one
   * run's events commit in id order and their notifications arrive in commit order, so every event
   * before it has reached that subscriber already. One not yet in sync (it subscribed from some id,
   * the connection came back), or any while a read of the run is under way (which delivers in
   * order), waits for a read of the table, after which it is in sync; one whose own replay is under
   * way, for the replay's end (caughtUp), which reads only if the replay fell short of it.
   */
  function onRunEvent(payload: string) {
    const runId = payload.slice(0, payload.indexOf(':'))
    const forRun = subscriptions.get(runId)
    if (!forRun) return
    const notification = parseEventNotification(payload)
    if (!notification || readers.has(runId)) return requestRead(runId)
    let anySynced = false
    for (const subscription of forRun) {
      if (subscription.synced) anySynced = true
      else if (!subscription.replaying) return requestRead(runId)
    }
    // Those replaying learn of it when their replay ends (caughtUp); the rest are in sync.
    for (const subscription of forRun) {
      if (!subscription.synced) subscription.heard = Math.max(subscription.heard, notification.row.id)
    }
    if (!anySynced) return
    let event: RunEvent | undefined
    try {
      event = eventLog.notified(notification)
    } catch (error) {
      log.warn({ err: error, runId }, 'a notified run event could not be opened; reading it')
    }
    if (!event) return requestRead(runId)
    for (const subscription of forRun) {
      if (!subscription.synced || event.id <= subscription.lastId) continue
      subscription.lastId = event.id
      deliver(subscription, event)
    }
  }

  function notifyEnded(principal: string | null) {
    for (const onEnded of endedSubscriptions) {
      try {
        onEnded(principal)
      } catch (error) {
        log.error({ err: error }, 'streams-ended subscriber failed')
      }
    }
  }

  function notifyAccount(accountId: string, runId: string | null) {
    for (const onChange of accountSubscriptions.get(accountId) ?? []) {
      try {
        onChange(runId)
      } catch (error) {
        log.error({ err: error, accountId }, 'account change subscriber failed')
      }
    }
  }

  function requestRead(runId: string) {
    const reader = readers.get(runId)
    if (reader) {
      reader.again = true
      return
    }
    const state = { again: false }
    readers.set(runId, state)
    void drain(runId, state)
  }

  async function drain(runId: string, state: { again: boolean }) {
    try {
      for (;;) {
        const forRun = subscriptions.get(runId)
        if (!forRun || stopping.signal.aborted) break
        state.again = false
        const vouching = listeningSince()
        const floor = Math.min(...[...forRun].map((subscription) => subscription.lastId))
        const events = await eventLog.read(runId, floor, PAGE_SIZE)
        for (const event of events) {
          for (const subscription of subscriptions.get(runId) ?? []) {
            // One that subscribed during the read, further back than it reached, waits for the next pass.
            if (subscription.lastId < floor || event.id <= subscription.lastId) continue
            subscription.lastId = event.id
            deliver(subscription, event)
          }
        }
        if (events.length < PAGE_SIZE && !state.again) {
          // Every notification heard so far is in what was read: each subscriber is in sync now, if
          // someone listened throughout (else the read after reconnecting brings them in sync).
          if (stillListening(vouching)) {
            for (const subscription of subscriptions.get(runId) ?? []) subscription.synced = true
          }
          break
        }
      }
      readers.delete(runId)
    } catch (error) {
      // The reader stays registered while it waits, so notifications meanwhile start no second one.
      log.warn({ err: error, runId }, 'reading run events failed; retrying')
      const retry = await sleep(READ_RETRY_MS, true, { signal: stopping.signal }).catch(() => false)
      readers.delete(runId)
      if (retry) requestRead(runId)
    }
  }

  function deliver(subscription: Subscription, event: RunEvent) {
    try {
      subscription.onEvent(event)
    } catch (error) {
      log.error({ err: error, runId: event.runId, eventId: event.id }, 'run event subscriber failed')
    }
  }

  async function listen(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString, keepAlive: true, application_name: 'sextant-events' })
    next.on('notification', onNotification)
    next.on('error', (error) => lost(next, error))
    next.on('end', () => lost(next))
    try {
      await next.connect()
      await next.query(`LISTEN ${RUN_EVENTS_CHANNEL}; LISTEN ${ACCOUNT_CHANNEL}; LISTEN ${STREAMS_ENDED_CHANNEL}`)
    } catch (error) {
      next.end().catch(() => {})
      throw error
    }
    return next
  }

  function lost(which: pg.Client, error?: Error) {
    if (which !== client || stopping.signal.aborted) return
    client = undefined
    losses += 1
    // What is notified while nobody listens is gone: nobody is in sync until a read after reconnecting.
    for (const forRun of subscriptions.values()) for (const subscription of forRun) subscription.synced = false
    log.warn({ err: error }, 'run events listen connection lost; reconnecting')
    which.end().catch(() => {})
    reconnect().catch(() => {}) // only close() ends it early
  }

  async function reconnect() {
    for (let attempt = 0; ; attempt++) {
      const delay = Math.min(MAX_RECONNECT_DELAY_MS, reconnectDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2)
      await sleep(delay, undefined, { signal: stopping.signal })
      try {
        client = await listen()
      } catch (error) {
        log.warn({ err: error, attempt }, 'run events listen connection failed')
        continue
      }
      if (stopping.signal.aborted) {
        await client.end()
        return
      }
      log.info({ subscribedRuns: subscriptions.size }, 'run events listen connection restored')
      // Notifications sent while nobody listened are gone; the rows are not.
      for (const runId of subscriptions.keys()) requestRead(runId)
      for (const accountId of accountSubscriptions.keys()) notifyAccount(accountId, null)
      notifyEnded(null)
      return
    }
  }

  client = await listen()

  return {
    subscribe(runId, onEvent, afterId = 0, options = {}) {
      const replaying = options.replaying === true
      const subscription: Subscription = { onEvent, lastId: afterId, synced: false, replaying, heard: 0 }
      const forRun = subscriptions.get(runId) ?? new Set()
      forRun.add(subscription)
      subscriptions.set(runId, forRun)
      const reader = readers.get(runId)
      if (reader) reader.again = true
      const unsubscribe = () => {
        forRun.delete(subscription)
        if (forRun.size === 0 && subscriptions.get(runId) === forRun) subscriptions.delete(runId)
      }
      // Every notification heard before the replay read began is of an event committed before it, so
      // in what it read; one heard since (while not in sync) has started a read of the hub's own, or
      // (replaying) starts one at caughtUp if the replay did not reach its event; that read still
      // delivers anything the replay missed, in order, before any payload is used. Not if nobody
      // listened at any time since: what was sent then is unheard, and the read after reconnecting
      // brings the subscriber in sync.
      const vouching = listeningSince()
      const caughtUp = (lastId: number) => {
        subscription.lastId = Math.max(subscription.lastId, lastId)
        subscription.replaying = false
        // Notified while replaying, of an event the replay did not reach (it committed after the
        // replay's read began): the table has it, and the read that fetches it brings it in sync.
        if (subscription.heard > subscription.lastId) return requestRead(runId)
        if (stillListening(vouching)) subscription.synced = true
      }
      return Object.assign(unsubscribe, { caughtUp })
    },
    subscribeAccount(accountId, onChange) {
      const forAccount = accountSubscriptions.get(accountId) ?? new Set()
      forAccount.add(onChange)
      accountSubscriptions.set(accountId, forAccount)
      return () => {
        forAccount.delete(onChange)
        if (forAccount.size === 0 && accountSubscriptions.get(accountId) === forAccount) {
          accountSubscriptions.delete(accountId)
        }
      }
    },
    subscribeStreamsEnded(onEnded) {
      endedSubscriptions.add(onEnded)
      return () => endedSubscriptions.delete(onEnded)
    },
    subscriberCount() {
      let count = 0
      for (const forRun of subscriptions.values()) count += forRun.size
      for (const forAccount of accountSubscriptions.values()) count += forAccount.size
      return count
    },
    async close() {
      stopping.abort()
      subscriptions.clear()
      accountSubscriptions.clear()
      endedSubscriptions.clear()
      const last = client
      client = undefined
      await last?.end()
    },
  }
}
