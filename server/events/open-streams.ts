// The event streams open in this process, by principal (server/events/stream-principals.ts): at most
// `maxPerPrincipal` each, so one session or key cannot hold thousands of them, and all of one
// principal's can be closed at once when its session ends or its key is revoked.
import type { Response } from 'express'

export type OpenStreams = {
  /**
   * Counts `res` as one of the principal's streams until it closes, or throws TooManyStreamsError
   * (answered 429 by server/http/problem.ts) when the principal already has the most it may. The
   * signal aborts when the stream must end: the stream ends itself on it (ending the response from
   * outside could race its own writes).
   */
  admit(principal: string, res: Response): AbortSignal
  /** Aborts every open stream of the principal; returns how many. */
  closeAll(principal: string): number
  /** The principals with streams open now. */
  principals(): string[]
}

/** The principal already has as many streams open as it may. */
export class TooManyStreamsError extends Error {
  constructor(max: number, noun: string) {
    super(`At most ${max} event streams can be open at once for one ${noun}; close one and try again.`)
    this.name = 'TooManyStreamsError'
  }
}

const NOUNS: Record<string, string> = {
  session: 'dashboard session',
  trial: 'trial visitor',
  key: 'API key',
  account: 'account',
}

export function createOpenStreams(options: { maxPerPrincipal: number }): OpenStreams {
  const max = options.maxPerPrincipal
  const open = new Map<string, Set<AbortController>>()

  return {
    admit(principal, res) {
      const streams = open.get(principal) ?? new Set()
      if (streams.size >= max) {
        const noun = NOUNS[principal.split(':')[0] ?? ''] ?? 'client'
        throw new TooManyStreamsError(max, noun)
      }
      const controller = new AbortController()
      // The client left while we looked it up: no 'close' is coming, so nothing to count.
      if (res.closed) {
        controller.abort()
        return controller.signal
      }
      streams.add(controller)
      open.set(principal, streams)
      res.once('close', () => {
        streams.delete(controller)
        if (streams.size === 0 && open.get(principal) === streams) open.delete(principal)
      })
      return controller.signal
    },
    closeAll(principal) {
      const streams = [...(open.get(principal) ?? [])]
      for (const controller of streams) controller.abort()
      return streams.length
    },
    principals() {
      return [...open.keys()]
    },
  }
}
