// Every scenario of `npm run bench`, in the order it runs them, and their names (what `--only` takes);
// the opt-in ones run only when `--only` names them.
import type { Scenario, StandaloneScenario } from '#bench/scenario.ts'
import { concurrentScenario } from '#bench/scenarios/concurrent.ts'
import { getLoadScenario } from '#bench/scenarios/get-load.ts'
import { idleScenario } from '#bench/scenarios/idle.ts'
import { memorySavingsScenario } from '#bench/scenarios/memory-savings.ts'
import { monitorsScenario } from '#bench/scenarios/monitors.ts'
import { overheadScenario } from '#bench/scenarios/overhead.ts'
import { qualityScenario } from '#bench/scenarios/quality.ts'
import { sseFanoutScenario } from '#bench/scenarios/sse-fanout.ts'
import { startLatencyScenario } from '#bench/scenarios/start-latency.ts'

/**
 * Most scenarios run on one server with the default configuration; idle first: after the others,
 * Postgres's own housekeeping (autovacuum after the load) would be most of what it measures.
 */
export const DEFAULT_SCENARIOS: Scenario[] = [
  idleScenario,
  overheadScenario,
  startLatencyScenario,
  memorySavingsScenario,
  sseFanoutScenario,
  getLoadScenario,
]
/** On a restart of the same data, with every run in flight at once. */
export const CONCURRENT_SCENARIOS: Scenario[] = [concurrentScenario]
/** Scenarios with providers of their own start their own servers, on data of their own. */
export const STANDALONE_SCENARIOS: StandaloneScenario[] = [qualityScenario]
/**
 * Standalone too, but long: a plain `npm run bench` leaves them out; they run when `--only` names
 * them (monitors: issue 42's burst of 2,000 runs on a web process and three workers).
 */
export const OPT_IN_SCENARIOS: StandaloneScenario[] = [monitorsScenario]

export const SCENARIO_NAMES = [
  ...DEFAULT_SCENARIOS,
  ...CONCURRENT_SCENARIOS,
  ...STANDALONE_SCENARIOS,
  ...OPT_IN_SCENARIOS,
].map((scenario) => scenario.name)
