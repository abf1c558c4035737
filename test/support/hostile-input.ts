// fast-check arbitraries for input a client should never send: values shaped by a JSON Schema (so
// most of them get past the first check and reach deeper validation) but bent at every level.
import fc from 'fast-check'

type JsonSchema = {
  $ref?: string
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  default?: unknown
}

/** Strings that have broken parsers before: blanks, control characters, other scripts, markup, SQL. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 10 }).map((text) => `${text}\u0000${text}`),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\t\n\r',
    '\u202e\u200b',
    '💥'.repeat(300),
    'a'.repeat(501),
    'é'.repeat(2001),
    "'; drop table runs; --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '%',
    '\ud800',
    '__proto__',
    'constructor',
    'null',
    '1e309',
    '-0',
    'true',
  ),
)

/** Any JSON value, small. */
export const anyJson = fc.jsonValue({ maxDepth: 2 })

function resolve(schema: JsonSchema, root: unknown): JsonSchema {
  if (!schema.$ref) return schema
  const path = schema.$ref.replace(/^#\//, '').split('/')
  let node = root as Record<string, unknown>
  for (const key of path) node = node[key] as Record<string, unknown>
  return resolve(node as JsonSchema, root)
}

/**
 * A value for `schema`, valid about half the time at each level and otherwise wrong: another type,
 * out of range, too long, an unknown property, a missing required one.
 */
export function valueFor(schema: JsonSchema, root: unknown, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, root)
  const wrong = fc.oneof(anyJson, nastyString, fc.constantFrom(null, 0, -1, 1e21, true, [], {}))
  if (depth > 3) return wrong
  const alternatives = resolved.anyOf ?? resolved.oneOf
  if (alternatives) return fc.oneof(...alternatives.map((option) => valueFor(option, root, depth + 1)), wrong)
  if (resolved.enum) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...resolved.enum) }, wrong)
  if (resolved.const !== undefined) return fc.oneof(fc.constant(resolved.const), wrong)
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type
  switch (type) {
    case 'string': {
      const max = resolved.maxLength ?? 200
      return fc.oneof(
        { weight: 2, arbitrary: fc.string({ minLength: resolved.minLength ?? 0, maxLength: Math.min(max, 60) }) },
        { weight: 2, arbitrary: nastyString },
        fc.string({ minLength: max + 1, maxLength: max + 3 }),
        wrong,
      )
    }
    case 'integer':
    case 'number': {
      const min = resolved.minimum ?? -1e6
      const max = resolved.maximum ?? 1e6
      return fc.oneof(
        fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
        fc.constantFrom(min - 1, max + 1, 0.5, -0, Number.MAX_SAFE_INTEGER + 2),
        fc.double({ noNaN: true }),
        fc.integer().map(String),
        wrong,
      )
    }
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 1, 0, 'yes'), wrong)
    case 'array':
      return fc.oneof(fc.array(valueFor(resolved.items ?? {}, root, depth + 1), { maxLength: 4 }), wrong)
    case 'object': {
      const properties = resolved.properties ?? {}
      const names = Object.keys(properties)
      const record = fc.record(
        Object.fromEntries(names.map((name) => [name, valueFor(properties[name] ?? {}, root, depth + 1)])),
        { requiredKeys: [] },
      )
      // Sometimes with the required fields all present, so deeper checks get exercised too.
      const complete = fc.record(
        Object.fromEntries(names.map((name) => [name, valueFor(properties[name] ?? {}, root, depth + 1)])),
        { requiredKeys: resolved.required ?? [] },
      )
      const withExtra = fc
        .tuple(complete, nastyString, anyJson)
        .map(([value, key, extra]) => ({ ...(value as object), [key || 'extra']: extra }))
      return fc.oneof({ weight: 3, arbitrary: complete }, record, withExtra, wrong)
    }
    default:
      return wrong
  }
}

/** encodeURIComponent that cannot throw. */
export function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text) || 'x'
  } catch {
    return 'x' // a lone surrogate cannot be encoded; the raw byte strings below cover broken encodings
  }
}

/** A path segment: usually percent-encoded garbage, sometimes raw bytes that break URL decoding. */
export const hostileSegment = fc.oneof(
  { weight: 3, arbitrary: nastyString.map(encodeSegment) },
  fc.constantFrom('%', '%E0%A4%A', '%ff', '..', '.%2e', '%2e%2e%2f', 'a'.repeat(3000), '%00', 'null', '0'),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.uuid(),
)

/**
 * How many cases a property test of hostile input runs (`FUZZ_RUNS`, or the file's default), and the
 * time it may take: `perCaseMs` a case. The budget grows with the cases, so a deeper run
 * (`FUZZ_RUNS=1000`) beside other work is not failed by the clock (issue 41, item 2). A test that
 * hangs still fails.
 */
export function fuzzRuns(fallback: number, perCaseMs = 300): { numRuns: number; timeout: number } {
  const numRuns = Number(process.env.FUZZ_RUNS ?? fallback)
  return { numRuns, timeout: Math.max(MIN_TIMEOUT_MS, numRuns * perCaseMs) }
}
const MIN_TIMEOUT_MS = 30_000
