// An account's run list as Server-Sent Events: the whole list when the client connects, then again
// whenever the hub hears that one of the account's runs (or series) changed. Sending the list, not
// a diff, means a client that reconnects or missed a notification is whole again with the next
// message; changes arriving in a burst (a run's steps) are coalesced into one read.
import type express from 'express'
import type { EventHub } from '#server/events/hub.ts'
import { beginEventStream } from '#server/events/sse.ts'

export function streamAccountRuns(options: {
  hub: EventHub
  req: express.Request
  res: express.Response
  accountId: string
  /** Reads the list as the client shows it. */
  read: () => Promise<unknown>
  coalesceMs?: number
  keepAliveMs?: number
}): Promise<void> {
  const { hub, res, accountId, read } = options
  const coalesceMs = options.coalesceMs ?? 200
  return new Promise<void>((resolve, reject) => {
    let ended = false
    let reading = false
    let dirty = false
    let timer: NodeJS.Timeout | undefined
    const unsubscribe = hub.subscribeAccount(accountId, () => schedule())
    res.on('close', () => end())

    beginEventStream(res)
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs ?? 15_000)
    void send()

    function end(error?: unknown) {
      if (ended) return
      ended = true
      clearInterval(keepAlive)
      clearTimeout(timer)
      unsubscribe()
      if (!res.writableEnded) res.end()
      if (error === undefined) resolve()
      else reject(error)
    }

    function schedule() {
      dirty = true
      if (!reading && !timer) timer = setTimeout(() => void send(), coalesceMs)
    }

    async function send() {
      timer = undefined
      dirty = false
      reading = true
      try {
        const list = await read()
        if (!ended) res.write(`event: runs\ndata: ${JSON.stringify(list)}\n\n`)
      } catch (error) {
        // The client reconnects (EventSource does) and gets a fresh list.
        return end(error)
      } finally {
        reading = false
      }
      if (dirty && !ended) schedule()
    }
  })
}
