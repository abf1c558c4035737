// `npm run bench`'s command line: its options, the scenarios `--only` may name, and what a mistyped
// one gets (the usage, exit 2) instead of a stack trace or, for a scenario name, a run of nothing.
import { parseArgs } from 'node:util'

export type BenchArgs = {
  quick: boolean
  strict: boolean
  statements: boolean
  /** Lower-cased scenario names, or undefined for all of them. */
  only: string[] | undefined
}

export type ParsedBenchArgs = { ok: true; args: BenchArgs } | { ok: false; help: boolean; message: string }

function benchUsage(scenarioNames: readonly string[]): string {
  return [
    'usage: npm run bench -- [--quick] [--strict] [--statements] [--only "<scenario>,<scenario>"]',
    '',
    '  --quick        smaller sizes (also BENCH_QUICK=1)',
    '  --strict       exit 1 when a target is missed',
    '  --statements   print what each scenario asked of Postgres (pg_stat_statements)',
    '  --only         run only these scenarios, comma-separated',
    '',
    `scenarios: ${scenarioNames.map((name) => `"${name}"`).join(', ')}`,
    '',
    'environment: BENCH_MODEL_MS, BENCH_SEARCH_MS (stub latencies), BENCH_WORKER_CONCURRENCY,',
    '  BENCH_SERVER_NODE_OPTIONS, BENCH_DATABASE_URL, BENCH_QUALITY_FIRST_SEED, BENCH_WORKER_PROCESSES',
    '  (see "Benchmarks" in the README)',
  ].join('\n')
}

export function parseBenchArgs(argv: string[], scenarioNames: readonly string[]): ParsedBenchArgs {
  let values: { quick?: boolean; strict?: boolean; statements?: boolean; only?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean' },
        strict: { type: 'boolean' },
        statements: { type: 'boolean' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    // node:util's messages name the option ("Unknown option '--onyl'"); they are what a person needs.
    return { ok: false, help: false, message: `${(error as Error).message}\n\n${benchUsage(scenarioNames)}` }
  }
  if (values.help) return { ok: false, help: true, message: benchUsage(scenarioNames) }
  const only = values.only?.split(',').map((name) => name.trim().toLowerCase())
  if (only) {
    const known = new Set(scenarioNames.map((name) => name.toLowerCase()))
    const unknown = only.filter((name) => !known.has(name))
    if (unknown.length > 0) {
      const named = unknown.map((name) => `"${name}"`).join(', ')
      return {
        ok: false,
        help: false,
        message: `--only names no such scenario: ${named}\n\n${benchUsage(scenarioNames)}`,
      }
    }
  }
  return {
    ok: true,
    args: {
      quick: values.quick === true,
      strict: values.strict === true,
      statements: values.statements === true,
      only,
    },
  }
}
