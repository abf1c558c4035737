// The providers the benchmark runs Sextant against (bench/stub-providers.ts), started in their own
// process (bench/stub-process.ts) and asked over its IPC channel what they served. IPC rather than an
// HTTP control endpoint: the channel comes with the spawn, and its closing is how the stub process
// learns that the harness is gone, whether it stopped, crashed or was killed, so none is left behind.
import { spawn } from 'node:child_process'
import path from 'node:path'
import type { ProviderCall } from '#bench/measure.ts'
import { processCpuMs, stopChild, watchRss } from '#bench/server-process.ts'
import {
  type LimitStats,
  LimitStatsSchema,
  ProviderCallsSchema,
  type ProviderLimits,
  type Served,
  ServedSchema,
  type StubMessage,
  StubMessageSchema,
  type StubOptions,
  type StubRequest,
} from '#bench/stub-protocol.ts'

export type BenchStubs = {
  /** The stub process. */
  pid: number
  env: Record<string, string>
  /** The provider calls made for a topic (every prompt and query of a run names its topic). */
  callsFor: (topic: string) => Promise<ProviderCall[]>
  /** What the stubs served for a topic: model tokens, searches and results. */
  servedFor: (topic: string) => Promise<Served>
  /**
   * Of each query's pages on `topic`, this share is new each time it is asked (default 0.4);
   * `restating`: the new pages only say again, in other words, what the page they replace led with.
   */
  setNewShare: (topic: string, share: number, restating?: boolean) => Promise<void>
  /** With limits: what the fronts saw and the stubs behind them served; null without. */
  limitStats: () => Promise<LimitStats | null>
  /** CPU time (user + system, ms) the stub process has used so far. */
  cpuMs: () => number
  /** Starts a new peak-memory window; `peakRss()` reports the stub process's highest resident set size since. */
  resetPeak: () => void
  peakRss: () => number
  /** Stops the stub process. Safe to call twice. */
  close: () => Promise<void>
}

const READY_TIMEOUT_MS = 60_000

type WithoutId<Request> = Request extends unknown ? Omit<Request, 'id'> : never
type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void }

/** The stubs in their process; with `limits`, each behind a front that enforces them (the monitors scenario). */
export async function startBenchStubs(latency: StubOptions['latency'], limits?: ProviderLimits): Promise<BenchStubs> {
  const options: StubOptions = { latency, ...(limits ? { limits } : {}) }
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'stub-process.ts'), JSON.stringify(options)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error('could not start the stub process')
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const pending = new Map<number, Pending>()
  let gone: Error | undefined
  child.once('exit', (code, signal) => {
    gone = new Error(`the stub process exited (${code ?? signal})`)
    for (const request of pending.values()) request.reject(gone)
    pending.clear()
  })

  const ready = new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stub process was not ready in time')), READY_TIMEOUT_MS)
    child.once('exit', () => reject(gone))
    child.on('message', (raw) => {
      const parsed = StubMessageSchema.safeParse(raw)
      if (!parsed.success) return console.error('the stub process sent a message that is not one:', raw)
      const message: StubMessage = parsed.data
      if (message.type === 'ready') {
        clearTimeout(timer)
        return resolve(message.env)
      }
      const request = pending.get(message.id)
      pending.delete(message.id)
      if (message.error !== undefined) request?.reject(new Error(`stub process: ${message.error}`))
      else request?.resolve(message.result)
    })
  })
  let env: Record<string, string>
  try {
    env = await ready
  } catch (error) {
    await stopChild(child, exited)
    throw error
  }

  let nextId = 0
  const ask = (request: WithoutId<StubRequest>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (gone) return reject(gone)
      const id = ++nextId
      pending.set(id, { resolve, reject })
      child.send({ ...request, id }, (error) => {
        if (!error) return
        pending.delete(id)
        reject(error)
      })
    })
  let closing: Promise<void> | undefined
  const rss = watchRss(pid)
  return {
    pid,
    env,
    callsFor: async (topic) => ProviderCallsSchema.parse(await ask({ method: 'callsFor', topic })),
    servedFor: async (topic) => ServedSchema.parse(await ask({ method: 'servedFor', topic })),
    async setNewShare(topic, share, restating) {
      await ask({ method: 'setNewShare', topic, share, restating })
    },
    limitStats: async () => LimitStatsSchema.nullable().parse(await ask({ method: 'limitStats' })),
    cpuMs: () => processCpuMs(pid),
    resetPeak: rss.reset,
    peakRss: rss.peak,
    close: () =>
      (closing ??= (async () => {
        rss.stop()
        await stopChild(child, exited)
      })()),
  }
}
