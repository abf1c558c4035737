// The command lines of `npm run bench` and `bench/compare.ts`: their options, the scenarios `--only`
// may name, and what a mistyped one gets (the usage, exit 2) instead of a stack trace or, for a
// scenario name, a run of nothing.
import { parseArgs } from 'node:util'
import { z } from 'zod'

export type BenchArgs = {
  quick: boolean
  strict: boolean
  statements: boolean
  /** Lower-cased scenario names, or undefined for all of them. */
  only: string[] | undefined
}

type Parsed<Args> = { ok: true; args: Args } | { ok: false; help: boolean; message: string }
export type ParsedBenchArgs = Parsed<BenchArgs>

export type CompareArgs = { only: string; base: string; pairs: number }
export const MAX_PAIRS = 50

function benchUsage(scenarioNames: readonly string[], optIn: readonly string[] = []): string {
  const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ')
  const always = scenarioNames.filter((name) => !optIn.includes(name))
  return [
    'usage: npm run bench -- [--quick] [--strict] [--statements] [--only "<scenario>,<scenario>"]',
    '',
    '  --quick        smaller sizes (also BENCH_QUICK=1)',
    '  --strict       exit 1 when a target is missed',
    '  --statements   print what each scenario asked of Postgres (pg_stat_statements)',
    '  --only         run only these scenarios, comma-separated',
    '',
    `scenarios: ${quoted(always)}`,
    ...(optIn.length > 0 ? [`run only when --only names them (long): ${quoted(optIn)}`] : []),
    '',
    'environment: BENCH_MODEL_MS, BENCH_SEARCH_MS (stub latencies), BENCH_WORKER_CONCURRENCY,',
    '  BENCH_SERVER_NODE_OPTIONS, BENCH_DATABASE_URL, BENCH_QUALITY_FIRST_SEED, BENCH_QUALITY_PATHS,',
    '  BENCH_QUALITY_WEBS, BENCH_WORKER_PROCESSES',
    '  (see bench/README.md)',
  ].join('\n')
}

/**
 * `scenarioNames`: every scenario `--only` may name; `optIn`: those of them a plain run leaves out,
 * which the usage lists apart.
 */
export function parseBenchArgs(
  argv: string[],
  scenarioNames: readonly string[],
  optIn: readonly string[] = [],
): ParsedBenchArgs {
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
    return { ok: false, help: false, message: `${(error as Error).message}\n\n${benchUsage(scenarioNames, optIn)}` }
  }
  if (values.help) return { ok: false, help: true, message: benchUsage(scenarioNames, optIn) }
  const only = values.only?.split(',').map((name) => name.trim().toLowerCase())
  const unknown = only && unknownScenarios(only, scenarioNames)
  if (unknown) return { ok: false, help: false, message: `${unknown}\n\n${benchUsage(scenarioNames, optIn)}` }
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

function compareUsage(scenarioNames: readonly string[]): string {
  return [
    `usage: npx node bench/compare.ts --only "<scenario>" [--base <git ref>] [--pairs <1-${MAX_PAIRS}>]`,
    '',
    '  --only    the scenario to run on both sides, comma-separated for several',
    '  --base    the code to compare the working tree with (default HEAD)',
    '  --pairs   how many base/new pairs, in ABBA order (default 4)',
    '',
    `scenarios: ${scenarioNames.map((name) => `"${name}"`).join(', ')}`,
  ].join('\n')
}

export function parseCompareArgs(argv: string[], scenarioNames: readonly string[]): Parsed<CompareArgs> {
  let values: { only?: string; base?: string; pairs?: string; help?: boolean }
  try {
    ;({ values } = parseArgs({
      args: argv,
      options: {
        only: { type: 'string' },
        base: { type: 'string', default: 'HEAD' },
        pairs: { type: 'string', default: '4' },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    return { ok: false, help: false, message: `${(error as Error).message}\n\n${compareUsage(scenarioNames)}` }
  }
  if (values.help) return { ok: false, help: true, message: compareUsage(scenarioNames) }
  const refuse = (message: string): Parsed<CompareArgs> => ({
    ok: false,
    help: false,
    message: `${message}\n\n${compareUsage(scenarioNames)}`,
  })
  if (!values.only) return refuse('--only is required: which scenario to compare')
  const unknown = unknownScenarios(
    values.only.split(',').map((name) => name.trim().toLowerCase()),
    scenarioNames,
  )
  if (unknown) return refuse(unknown)
  const pairs = Number(values.pairs)
  if (!Number.isInteger(pairs) || pairs < 1 || pairs > MAX_PAIRS)
    return refuse(`--pairs must be a whole number from 1 to ${MAX_PAIRS}, not "${values.pairs}"`)
  return { ok: true, args: { only: values.only, base: values.base ?? 'HEAD', pairs } }
}

/** Why `--only`'s (lower-cased) names are refused, or null when the bench knows each of them. */
function unknownScenarios(only: string[], scenarioNames: readonly string[]): string | null {
  const known = new Set(scenarioNames.map((name) => name.toLowerCase()))
  const unknown = only.filter((name) => !known.has(name))
  if (unknown.length === 0) return null
  return `--only names no such scenario: ${unknown.map((name) => `"${name}"`).join(', ')}`
}

/**
 * A setting that lists some of `values`, comma-separated (`BENCH_QUALITY_WEBS=development,templated`):
 * each at most once, in any case; a value it does not know is refused by name.
 */
export function commaList<const T extends string>(values: readonly [T, ...T[]]) {
  return z
    .string()
    .transform((text) => [...new Set(text.split(',').map((each) => each.trim().toLowerCase()))])
    .pipe(z.array(z.enum(values)).min(1))
}
