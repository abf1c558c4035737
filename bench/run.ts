// `npm run bench`: Sextant in its own process against stub providers with fixed latencies, through
// the scenarios of issue #11, then the quality scenario of issue #15 (on servers of its own, with a
// synthetic web and a sloppy model); prints a table and writes it with the details to bench/results/.
// Exits non-zero when a scenario fails (a run that does not complete, a request that errors), or,
// with --strict, when a target is missed. `--quick` (or BENCH_QUICK=1) shrinks every scenario.
// Some scenarios are long and run only when `--only` names them (monitors: issue 42's burst).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { commaList, parseBenchArgs } from '#bench/args.ts'
import { createClient } from '#bench/client.ts'
import { formatTable, mib, type Row, seconds } from '#bench/measure.ts'
import {
  type BenchContext,
  FULL_SIZES,
  QUALITY_PATHS,
  QUALITY_WEBS,
  QUICK_SIZES,
  type Scenario,
  type ScenarioResult,
  type Sizes,
  type StandaloneContext,
  type StandaloneScenario,
} from '#bench/scenario.ts'
import {
  CONCURRENT_SCENARIOS,
  DEFAULT_SCENARIOS,
  OPT_IN_SCENARIOS,
  SCENARIO_NAMES,
  STANDALONE_SCENARIOS,
} from '#bench/scenarios/all.ts'
import {
  createDataDir,
  printedApiKey,
  removeDataDir,
  type ServerProcess,
  startServer,
  startWorker,
  type WorkerProcess,
} from '#bench/server-process.ts'
import {
  formatStatements,
  recordStatements,
  STATEMENTS_SETTINGS,
  type StatementRecorder,
  type StatementRow,
} from '#bench/statements.ts'
import { type BenchStubs, startBenchStubs } from '#bench/stubs.ts'
import { runningEmbeddedPostgresUrl } from '#db/embedded.ts'
import { projectRoot } from '#server/http/app-build.ts'

const flag = z.enum(['', '0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true')
const EnvSchema = z.object({
  BENCH_QUICK: flag.default(false),
  BENCH_MODEL_MS: z.coerce.number().int().min(0).default(300),
  BENCH_SEARCH_MS: z.coerce.number().int().min(0).default(200),
  // The concurrent scenario's WORKER_CONCURRENCY (the config's maximum): all its runs at once.
  BENCH_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(100),
  // An empty database to run on instead of an embedded Postgres (it must not have been provisioned).
  BENCH_DATABASE_URL: z.string().optional(),
  // Node options for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles" to see where its CPU goes.
  BENCH_SERVER_NODE_OPTIONS: z.string().optional(),
  // The quality scenario's first seed: start elsewhere (say 101) to score webs nobody tuned against.
  BENCH_QUALITY_FIRST_SEED: z.coerce.number().int().min(1).optional(),
  // The quality scenario's paths and webs, comma-separated (default all): "extractive" and
  // "development" iterate on a rule without running, or reading, the held-out topics.
  BENCH_QUALITY_PATHS: commaList(QUALITY_PATHS).optional(),
  BENCH_QUALITY_WEBS: commaList(QUALITY_WEBS).optional(),
  // Worker processes (`npm run worker`) beside a server started with RUN_ROLE=web, instead of one
  // process doing both: what a deployment that spreads the runs over the cores would measure.
  BENCH_WORKER_PROCESSES: z.coerce.number().int().min(0).max(8).default(0),
})

/** The config's default, which most scenarios run with. */
const DEFAULT_WORKER_CONCURRENCY = 8
const RESULTS_DIR = path.join(projectRoot, 'bench', 'results')

const parsed = parseBenchArgs(
  process.argv.slice(2),
  SCENARIO_NAMES,
  OPT_IN_SCENARIOS.map((scenario) => scenario.name),
)
if (!parsed.ok) {
  ;(parsed.help ? console.log : console.error)(parsed.message)
  process.exit(parsed.help ? 0 : 2)
}
const { args } = parsed
const parsedEnv = EnvSchema.safeParse(process.env)
if (!parsedEnv.success) {
  const problems = parsedEnv.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  console.error(`The benchmark's settings are not usable:\n${problems.join('\n')}`)
  process.exit(2)
}
const env = parsedEnv.data
const quick = args.quick || env.BENCH_QUICK
const sizes: Sizes = {
  ...(quick ? QUICK_SIZES : FULL_SIZES),
  ...(env.BENCH_QUALITY_FIRST_SEED ? { qualityFirstSeed: env.BENCH_QUALITY_FIRST_SEED } : {}),
  ...(env.BENCH_QUALITY_PATHS ? { qualityPaths: env.BENCH_QUALITY_PATHS } : {}),
  ...(env.BENCH_QUALITY_WEBS ? { qualityWebs: env.BENCH_QUALITY_WEBS } : {}),
}
const latency = { modelMs: env.BENCH_MODEL_MS, searchMs: env.BENCH_SEARCH_MS }

const cleanups: Array<() => Promise<void> | void> = []
async function cleanUp() {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()
    try {
      await cleanup?.()
    } catch (error) {
      console.error('cleanup failed:', error)
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the server and cleaning up`)
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143))
  })
}

type Outcome = {
  name: string
  result?: ScenarioResult
  error?: string
  peakRssBytes: number
  /** `stubs`: the stub process's; absent where a scenario's stubs run in the harness (quality). */
  cpuMs: { server: number; postgres: number; stubs?: number }
  seconds: number
  statements?: { runs: number; rows: StatementRow[] }
}

async function runScenario(
  scenario: Scenario,
  context: BenchContext,
  statements: StatementRecorder | undefined,
): Promise<Outcome> {
  process.stderr.write(`- ${scenario.name} ... `)
  const started = Date.now()
  await statements?.reset()
  context.server.resetPeak()
  const cpuBefore = { ...context.server.cpuMs(), stubs: context.stubs.cpuMs() }
  let outcome: Omit<Outcome, 'peakRssBytes' | 'cpuMs' | 'seconds'>
  try {
    outcome = { name: scenario.name, result: await scenario.run(context) }
  } catch (error) {
    outcome = { name: scenario.name, error: error instanceof Error ? error.message : String(error) }
  }
  const seconds = (Date.now() - started) / 1000
  const failed = outcome.error ?? outcome.result?.failures.join('; ')
  process.stderr.write(`${failed ? `FAILED: ${failed}` : 'ok'} (${seconds.toFixed(1)} s)\n`)
  const cpuAfter = { ...context.server.cpuMs(), stubs: context.stubs.cpuMs() }
  const cpuMs = {
    server: cpuAfter.server - cpuBefore.server,
    postgres: cpuAfter.postgres - cpuBefore.postgres,
    stubs: cpuAfter.stubs - cpuBefore.stubs,
  }
  const recorded = statements && {
    runs: await statements.runsSince(new Date(started)),
    rows: await statements.read(),
  }
  if (recorded) process.stderr.write(`${formatStatements(recorded.rows, recorded.runs)}\n`)
  return { ...outcome, peakRssBytes: context.server.peakRss(), cpuMs, seconds, statements: recorded }
}

async function main(): Promise<number> {
  const startedAt = new Date()
  process.stderr.write(
    `Sextant benchmark${quick ? ' (quick)' : ''}: model ${latency.modelMs} ms, search ${latency.searchMs} ms, ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(2)}\n`,
  )
  const stubs: BenchStubs = await startBenchStubs(latency)
  cleanups.push(() => stubs.close())
  const dataDir = createDataDir()
  cleanups.push(() => removeDataDir(dataDir))

  let runNumber = 0
  const label = startedAt.toISOString().slice(11, 19).replaceAll(':', '')
  const topic = (name: string) => `bench ${label} ${name} #${++runNumber}`
  const baseEnv = {
    // The limits of spec section 8 would stop a benchmark after 5 runs; they are not what it measures.
    RATE_LIMIT_RUNS_PER_HOUR: '1000000',
    // The quality scenario reads topic memory through MCP, more than the 120 calls an hour a key and an
    // account may make once the realistic corpus has more than 25 topics.
    RATE_LIMIT_MCP_PER_HOUR: '1000000',
    RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: '1000000',
    // Nor are the caps on streams per key and connections per address: every client is one key on loopback.
    MAX_EVENT_STREAMS_PER_SESSION: '10000',
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    LOG_LEVEL: 'info',
    // Required with DATABASE_URL; a throwaway ring either way, since the data is thrown away too.
    MEMORY_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    // On a database of its own the server makes no local account (a hosted install's users sign up);
    // LOCAL_DEV_AUTH makes it, and print its key, as it does on the embedded one.
    ...(env.BENCH_DATABASE_URL ? { DATABASE_URL: env.BENCH_DATABASE_URL, LOCAL_DEV_AUTH: 'true' } : {}),
    ...(env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: env.BENCH_SERVER_NODE_OPTIONS } : {}),
    ...(args.statements ? { EMBEDDED_PG_SETTINGS: STATEMENTS_SETTINGS } : {}),
  }
  const serverEnv = { ...stubs.env, ...baseEnv }
  const boot = async (workerConcurrency: number): Promise<ServerProcess> => {
    const phaseEnv = { ...serverEnv, WORKER_CONCURRENCY: String(workerConcurrency) }
    const apart = env.BENCH_WORKER_PROCESSES > 0
    const web = await startServer({ dataDir, env: apart ? { ...phaseEnv, RUN_ROLE: 'web' } : phaseEnv })
    cleanups.push(() => web.stop())
    if (!apart) return web
    const workers: WorkerProcess[] = []
    for (let i = 0; i < env.BENCH_WORKER_PROCESSES; i++) {
      const worker = await startWorker({ dataDir, env: phaseEnv })
      cleanups.push(() => worker.stop())
      workers.push(worker)
    }
    // The server's CPU is all of its processes'.
    return {
      ...web,
      cpuMs() {
        const { server, postgres } = web.cpuMs()
        return { server: server + workers.reduce((sum, worker) => sum + worker.cpuMs(), 0), postgres }
      },
      async stop() {
        await Promise.all(workers.map((worker) => worker.stop()))
        await web.stop()
      },
    }
  }

  const outcomes: Outcome[] = []
  // `--only "start latency,concurrent runs"` runs some scenarios, for working on one.
  const { only } = args
  const chosen = (scenario: { name: string }) => !only || only.includes(scenario.name.toLowerCase())
  // The first start prints the local account's API key; later starts on the same data reuse it.
  let apiKey: string | undefined
  const phases: Array<{ workerConcurrency: number; scenarios: Scenario[] }> = [
    // Most scenarios run on the default configuration...
    { workerConcurrency: DEFAULT_WORKER_CONCURRENCY, scenarios: DEFAULT_SCENARIOS },
    // ...and the concurrent runs on a restart of the same data, with every run in flight at once.
    { workerConcurrency: env.BENCH_WORKER_CONCURRENCY, scenarios: CONCURRENT_SCENARIOS },
  ]
  for (const phase of phases) {
    const scenarios = phase.scenarios.filter(chosen)
    if (scenarios.length === 0) continue
    process.stderr.write(`starting Sextant with WORKER_CONCURRENCY=${phase.workerConcurrency} ...\n`)
    const server = await boot(phase.workerConcurrency)
    apiKey ??= printedApiKey(server)
    const context: BenchContext = {
      client: createClient(server.url, apiKey),
      stubs,
      server,
      latency,
      sizes,
      workerConcurrency: phase.workerConcurrency,
      topic,
    }
    const statements = args.statements ? await recordStatements(server.dataDir) : undefined
    for (const scenario of scenarios) outcomes.push(await runScenario(scenario, context, statements))
    await statements?.close()
    await server.stop()
  }
  // Long scenarios run only when `--only` names them.
  const named = (scenario: { name: string }) => only?.includes(scenario.name.toLowerCase()) === true
  for (const scenario of [...STANDALONE_SCENARIOS.filter(chosen), ...OPT_IN_SCENARIOS.filter(named)]) {
    outcomes.push(await runStandalone(scenario, { ...baseEnv, WORKER_CONCURRENCY: String(DEFAULT_WORKER_CONCURRENCY) }))
  }

  const rows: Row[] = outcomes.flatMap((outcome) => [
    ...(outcome.result?.rows ?? [{ scenario: outcome.name, metric: 'FAILED', value: outcome.error ?? '' }]),
    {
      scenario: outcome.name,
      metric: `server peak RSS; CPU server / Postgres / stubs (${outcome.seconds.toFixed(0)} s)`,
      value: `${mib(outcome.peakRssBytes)}; ${seconds(outcome.cpuMs.server)} / ${seconds(outcome.cpuMs.postgres)} / ${outcome.cpuMs.stubs === undefined ? 'in harness' : seconds(outcome.cpuMs.stubs)}`,
    },
  ])
  const table = formatTable(rows)
  const failures = outcomes.flatMap((outcome) =>
    outcome.error
      ? [`${outcome.name}: ${outcome.error}`]
      : (outcome.result?.failures ?? []).map((f) => `${outcome.name}: ${f}`),
  )
  const missed = rows.filter((row) => row.met === false)
  const results = {
    startedAt: startedAt.toISOString(),
    quick,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryBytes: os.totalmem(),
      node: process.version,
      loadAverageAtStart: os.loadavg(),
    },
    latency,
    sizes,
    workerConcurrency: { default: DEFAULT_WORKER_CONCURRENCY, concurrentScenario: env.BENCH_WORKER_CONCURRENCY },
    table,
    failures,
    missedTargets: missed.map((row) => `${row.scenario}: ${row.metric} ${row.value} (target ${row.target})`),
    scenarios: Object.fromEntries(
      outcomes.map((outcome) => [
        outcome.name,
        {
          seconds: outcome.seconds,
          peakRssBytes: outcome.peakRssBytes,
          cpuMs: outcome.cpuMs,
          error: outcome.error,
          failures: outcome.result?.failures,
          detail: outcome.result?.detail,
          statements: outcome.statements,
        },
      ]),
    ),
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(
    RESULTS_DIR,
    `${startedAt
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z')}.json`,
  )
  const json = `${JSON.stringify(results, null, 2)}\n`
  fs.writeFileSync(file, json)
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), json)

  process.stdout.write(`\n${table}\n\nWritten to ${path.relative(process.cwd(), file)} (and latest.json).\n`)
  if (failures.length > 0) {
    process.stdout.write(`\nFailed:\n${failures.map((failure) => `  ${failure}`).join('\n')}\n`)
    return 1
  }
  if (args.strict && missed.length > 0) {
    process.stdout.write(`\nMissed targets (--strict):\n${results.missedTargets.map((m) => `  ${m}`).join('\n')}\n`)
    return 1
  }
  return 0
}

async function runStandalone(scenario: StandaloneScenario, serverEnv: Record<string, string>): Promise<Outcome> {
  process.stderr.write(`- ${scenario.name} ... `)
  const started = Date.now()
  let peakRssBytes = 0
  const cpuMs = { server: 0, postgres: 0 }
  // Stub processes a scenario started: their CPU is the stubs' (the quality scenario's run in the harness).
  const stubProcesses: BenchStubs[] = []
  const context: StandaloneContext = {
    sizes,
    async startServer(extra, options = {}) {
      const dataDir = createDataDir()
      cleanups.push(() => removeDataDir(dataDir))
      const env = { ...serverEnv, ...extra }
      const workerCount = options.workers ?? 0
      const server = await startServer({ dataDir, env: workerCount > 0 ? { ...env, RUN_ROLE: 'web' } : env })
      cleanups.push(() => server.stop())
      const workers = await Promise.all(
        Array.from({ length: workerCount }, async () => {
          const worker = await startWorker({ dataDir, env })
          cleanups.push(() => worker.stop())
          return worker
        }),
      )
      server.resetPeak()
      for (const worker of workers) worker.resetPeak()
      // `--statements`: what the scenario's own cluster was asked, from its first run to its stop.
      const statements = args.statements && !env.DATABASE_URL ? await recordStatements(dataDir) : undefined
      const since = new Date()
      await statements?.reset()
      let stopped = false
      return {
        server,
        workers,
        client: createClient(server.url, printedApiKey(server)),
        databaseUrl() {
          const url = env.DATABASE_URL ?? runningEmbeddedPostgresUrl(dataDir)
          if (!url) throw new Error(`the server on ${dataDir} has no database running`)
          return url
        },
        async stop() {
          if (stopped) return
          stopped = true
          if (statements) {
            const [rows, runs] = [await statements.read(), await statements.runsSince(since)]
            process.stderr.write(`\n${formatStatements(rows, runs)}\n`)
            await statements.close()
          }
          const cpu = server.cpuMs()
          peakRssBytes = Math.max(peakRssBytes, server.peakRss())
          // The server's CPU is all of its processes'.
          cpuMs.server += cpu.server + workers.reduce((total, worker) => total + worker.cpuMs(), 0)
          cpuMs.postgres += cpu.postgres
          await Promise.all(workers.map((worker) => worker.stop()))
          await server.stop()
        },
      }
    },
    async startStubs(stubLatency, limits) {
      const stubs = await startBenchStubs(stubLatency, limits)
      cleanups.push(() => stubs.close())
      stubProcesses.push(stubs)
      return stubs
    },
    onCleanup: (cleanup) => cleanups.push(cleanup),
  }
  let outcome: Omit<Outcome, 'peakRssBytes' | 'cpuMs' | 'seconds'>
  try {
    outcome = { name: scenario.name, result: await scenario.run(context) }
  } catch (error) {
    outcome = { name: scenario.name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
  const seconds = (Date.now() - started) / 1000
  const failed = outcome.error ?? outcome.result?.failures.join('; ')
  process.stderr.write(`${failed ? `FAILED: ${failed}` : 'ok'} (${seconds.toFixed(1)} s)\n`)
  const stubsCpu =
    stubProcesses.length > 0 ? stubProcesses.reduce((total, stubs) => total + stubs.cpuMs(), 0) : undefined
  return {
    ...outcome,
    peakRssBytes,
    cpuMs: { ...cpuMs, ...(stubsCpu === undefined ? {} : { stubs: stubsCpu }) },
    seconds,
  }
}

let exitCode = 1
try {
  exitCode = await main()
} catch (error) {
  console.error(error)
} finally {
  await cleanUp()
}
process.exit(exitCode)
