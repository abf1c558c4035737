// What every scenario gets and returns, and the one-run measurement most of them share.
import type { BenchClient, ReceivedEvent } from '#bench/client.ts'
import { type CriticalPath, criticalPath, type Row } from '#bench/measure.ts'
import type { ServerProcess, WorkerProcess } from '#bench/server-process.ts'
import type { ProviderLimits } from '#bench/stub-protocol.ts'
import type { BenchStubs } from '#bench/stubs.ts'
import type { BriefInput } from '#server/vocabulary/brief.ts'

/** The quality scenario's paths: the sloppy model, no model, the model that answers right. */
export const QUALITY_PATHS = ['model', 'extractive', 'oracle'] as const
/** The quality scenario's webs: the templated one and the realistic corpus's two splits. */
export const QUALITY_WEBS = ['templated', 'development', 'held-out'] as const

export type Sizes = {
  overheadQuickRuns: number
  overheadDeepRuns: number
  startLatencyRuns: number
  /** Runs started after a quiet spell each (a monitored topic's usual start), and how long it is. */
  quietStarts: number
  quietSeconds: number
  concurrentRuns: number
  getLoadSeconds: number
  getLoadConnections: number
  sseClients: number
  /** How long the idle scenario watches a server with nothing to do. */
  idleSeconds: number
  /** The quality scenario: seeds (each a different synthetic web) and facts per topic (of 20). */
  qualitySeeds: number
  qualityFactsPerTopic: number
  /** The first seed; the rest follow it. Any other start is a web the engine was never looked at on. */
  qualityFirstSeed: number
  /** The paths and webs the quality scenario runs, when not all (`BENCH_QUALITY_PATHS`, `_WEBS`). */
  qualityPaths?: ReadonlyArray<(typeof QUALITY_PATHS)[number]>
  qualityWebs?: ReadonlyArray<(typeof QUALITY_WEBS)[number]>
  /** The monitors scenario: quick runs due at once, the accounts they belong to, the big account's share. */
  monitorsRuns: number
  monitorsAccounts: number
  monitorsBigAccountRuns: number
}

export const FULL_SIZES: Sizes = {
  overheadQuickRuns: 5,
  overheadDeepRuns: 3,
  startLatencyRuns: 50,
  quietStarts: 3,
  quietSeconds: 12,
  concurrentRuns: 100,
  getLoadSeconds: 10,
  getLoadConnections: 20,
  sseClients: 200,
  idleSeconds: 30,
  qualitySeeds: 5,
  qualityFactsPerTopic: 20,
  qualityFirstSeed: 1,
  monitorsRuns: 2000,
  monitorsAccounts: 50,
  monitorsBigAccountRuns: 1000,
}

export const QUICK_SIZES: Sizes = {
  overheadQuickRuns: 2,
  overheadDeepRuns: 1,
  startLatencyRuns: 10,
  quietStarts: 1,
  quietSeconds: 12,
  concurrentRuns: 20,
  getLoadSeconds: 3,
  getLoadConnections: 10,
  sseClients: 40,
  idleSeconds: 5,
  qualitySeeds: 3,
  qualityFactsPerTopic: 12,
  qualityFirstSeed: 1,
  monitorsRuns: 200,
  monitorsAccounts: 10,
  monitorsBigAccountRuns: 100,
}

export type BenchContext = {
  client: BenchClient
  stubs: BenchStubs
  server: ServerProcess
  latency: { modelMs: number; searchMs: number }
  sizes: Sizes
  workerConcurrency: number
  /** A topic no other run of this benchmark uses, so every run starts without memory unless meant to. */
  topic: (label: string) => string
  /** A completed run, for scenarios that read one. */
  completedRunId?: string
}

export type ScenarioResult = {
  rows: Row[]
  detail: Record<string, unknown>
  /** Why the scenario failed (a run that did not complete, a request that failed); empty when it passed. */
  failures: string[]
}

export type Scenario = { name: string; run: (context: BenchContext) => Promise<ScenarioResult> }

/** A Sextant a standalone scenario started, with the client of its local account. */
export type OwnServer = {
  /** The server process (with `workers`, the web process: RUN_ROLE=web). */
  server: ServerProcess
  /** Worker processes (`npm run worker`) beside it, when asked for. */
  workers: WorkerProcess[]
  client: BenchClient
  /** Its database, for a scenario that reads what the runs did or makes accounts: BENCH_DATABASE_URL or the embedded one. */
  databaseUrl: () => string
  /** Stops it (its peak memory and CPU time are counted first). */
  stop: () => Promise<void>
}

export type StandaloneContext = {
  sizes: Sizes
  /**
   * Starts Sextant on a fresh data directory with the benchmark's settings (rate limits off, a
   * throwaway key ring) and `env` on top, such as its own providers. Removed at the end. With
   * `workers`, the server is the web process (RUN_ROLE=web) and that many worker processes run the
   * research beside it, on the same database.
   */
  startServer: (env: Record<string, string>, options?: { workers?: number }) => Promise<OwnServer>
  /**
   * The bench's stub providers in their own process (bench/stubs.ts), with `limits` behind fronts
   * that enforce them; their CPU is counted as the stubs'. Closed at the end.
   */
  startStubs: (latency: { modelMs: number; searchMs: number }, limits?: ProviderLimits) => Promise<BenchStubs>
  /** Runs at the end of the benchmark, whatever happened (stubs to close). */
  onCleanup: (cleanup: () => Promise<void> | void) => void
}

/** A scenario that needs servers of its own settings (other providers), not the shared one. */
export type StandaloneScenario = { name: string; run: (context: StandaloneContext) => Promise<ScenarioResult> }

export type MeasuredRun = {
  runId: string
  topic: string
  postedAt: number
  events: ReceivedEvent[]
  final: ReceivedEvent
  /** POST sent to the final event received: what a client waits. */
  wallMs: number
  path: CriticalPath
}

/** Starts a run, follows its events to the end, and measures it against the calls the stubs served for it. */
export async function measureRun(context: BenchContext, brief: BriefInput & { topic: string }): Promise<MeasuredRun> {
  const { runId, postedAt } = await context.client.postBrief(brief)
  const watch = await context.client.watch(runId)
  const events = await watch.done
  const final = events.at(-1) as ReceivedEvent
  if (final.type !== 'complete') {
    throw new Error(`run ${runId} ended ${final.type}: ${JSON.stringify(final.data)}`)
  }
  return {
    runId,
    topic: brief.topic,
    postedAt,
    events,
    final,
    wallMs: final.receivedAt - postedAt,
    path: criticalPath(await context.stubs.callsFor(brief.topic)),
  }
}
