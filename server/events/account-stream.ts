// An account's run list as Server-Sent Events: the whole list when the client connects, then again
// whenever the hub hears that one of the account's runs (or series) changed. Sending the list, not
// a diff, means a client that reconnects or missed a notification is whole again with the next
// message. All the streams of one account (tabs, devices) share one hub subscription and one read
// per change: changes arriving in a burst (a run's steps) are coalesced into that one read.
import type express from 'express'
import type { EventHub } from '#server/events/hub.ts'
import { beginEventStream } from '#server/events/sse.ts'

export type AccountRunStreams = {
  /** Streams until the client leaves or `signal` aborts; rejects (after ending) when a read fails. */
  stream(options: { res: express.Response; accountId: string; signal?: AbortSignal }): Promise<void>
}

type Viewer = {
  /** Waiting for a list read after its last one was sent (a change, or just connected). */
  wants: boolean
  send: (message: string) => void
  end: (error?: unknown) => void
}

type Feed = { viewers: Set<Viewer>; reading: boolean; timer?: NodeJS.Timeout; unsubscribe: () => void }

export function createAccountRunStreams(options: {
  hub: EventHub
  /** Reads the list as the client shows it. */
  read: (accountId: string) => Promise<unknown>
  coalesceMs?: number
  keepAliveMs?: number
}): AccountRunStreams {
  const { hub, read } = options
  const coalesceMs = options.coalesceMs ?? 200
  const feeds = new Map<string, Feed>()

  function join(accountId: string, viewer: Viewer): () => void {
    let feed = feeds.get(accountId)
    if (!feed) {
      const created: Feed = { viewers: new Set(), reading: false, unsubscribe: () => {} }
      created.unsubscribe = hub.subscribeAccount(accountId, () => {
        for (const each of created.viewers) each.wants = true
        schedule(accountId, created, coalesceMs)
      })
      feeds.set(accountId, created)
      feed = created
    }
    const joined = feed
    joined.viewers.add(viewer)
    schedule(accountId, joined, 0)
    return () => {
      joined.viewers.delete(viewer)
      if (joined.viewers.size > 0) return
      clearTimeout(joined.timer)
      joined.timer = undefined
      joined.unsubscribe()
      if (feeds.get(accountId) === joined) feeds.delete(accountId)
    }
  }

  function schedule(accountId: string, feed: Feed, delayMs: number) {
    if (!feed.reading && !feed.timer) feed.timer = setTimeout(() => void readFor(accountId, feed), delayMs)
  }

  async function readFor(accountId: string, feed: Feed) {
    feed.timer = undefined
    // Those that want a list now get this read; one that starts wanting during it gets the next.
    const serving = [...feed.viewers].filter((viewer) => viewer.wants)
    if (serving.length === 0) return
    for (const viewer of serving) viewer.wants = false
    feed.reading = true
    try {
      const message = `event: runs\ndata: ${JSON.stringify(await read(accountId))}\n\n`
      for (const viewer of serving) viewer.send(message)
    } catch (error) {
      // Their clients reconnect (EventSource does) and get a fresh list.
      for (const viewer of serving) viewer.end(error)
    } finally {
      feed.reading = false
    }
    if ([...feed.viewers].some((viewer) => viewer.wants)) schedule(accountId, feed, coalesceMs)
  }

  return {
    stream({ res, accountId, signal }) {
      return new Promise<void>((resolve, reject) => {
        let ended = false
        const viewer: Viewer = {
          wants: true,
          send: (message) => {
            if (!ended) res.write(message)
          },
          end,
        }
        beginEventStream(res)
        const keepAlive = setInterval(() => viewer.send(': keep-alive\n\n'), options.keepAliveMs ?? 15_000)
        const leave = join(accountId, viewer)
        const onAbort = () => end()
        res.on('close', onAbort)
        signal?.addEventListener('abort', onAbort, { once: true })
        if (signal?.aborted) end()

        function end(error?: unknown) {
          if (ended) return
          ended = true
          clearInterval(keepAlive)
          leave()
          signal?.removeEventListener('abort', onAbort)
          if (!res.writableEnded) res.end()
          if (error === undefined) resolve()
          else reject(error)
        }
      })
    },
  }
}
