// Every scenario of `npm run bench`, in the order it runs them, and their names (what `--only` takes).
import type { Scenario, StandaloneScenario } from '#bench/scenario.ts'
import { concurrentScenario } from '#bench/scenarios/concurrent.ts'
import { getLoadScenario } from '#bench/scenarios/get-load.ts'
import { idleScenario } from '#bench/scenarios/idle.ts'
import { memorySavingsScenario } from '#bench/scenarios/memory-savings.ts'
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

export const SCENARIO_NAMES = [...DEFAULT_SCENARIOS, ...CONCURRENT_SCENARIOS, ...STANDALONE_SCENARIOS].map(
  (scenario) => scenario.name,
)
