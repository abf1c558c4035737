import { expect, test } from 'vitest'
import { commaList, parseBenchArgs, parseCompareArgs } from '#bench/args.ts'

const NAMES = ['overhead', 'GET under load', 'concurrent runs']

test('options and scenario names are read, names in any case and with spaces around them', () => {
  expect(parseBenchArgs(['--quick', '--only', ' get under LOAD ,overhead'], NAMES)).toEqual({
    ok: true,
    args: { quick: true, strict: false, statements: false, only: ['get under load', 'overhead'] },
  })
  expect(parseBenchArgs([], NAMES)).toEqual({
    ok: true,
    args: { quick: false, strict: false, statements: false, only: undefined },
  })
})

test('a scenario --only does not know is refused by name, with the names it knows', () => {
  const parsed = parseBenchArgs(['--only', 'overhead,concurent runs'], NAMES)
  expect(parsed).toMatchObject({ ok: false, help: false })
  if (parsed.ok) return
  expect(parsed.message).toMatch(/^--only names no such scenario: "concurent runs"\n/)
  expect(parsed.message).toContain('scenarios: "overhead", "GET under load", "concurrent runs"')
})

test('an unknown option is refused by name with the usage; --help is the usage alone', () => {
  const unknown = parseBenchArgs(['--onyl', 'overhead'], NAMES)
  expect(unknown).toMatchObject({ ok: false, help: false })
  if (unknown.ok) return
  expect(unknown.message).toMatch(/--onyl/)
  expect(unknown.message).toContain('usage: npm run bench --')

  for (const flag of ['--help', '-h']) {
    const help = parseBenchArgs([flag], NAMES)
    expect(help).toMatchObject({ ok: false, help: true })
    if (help.ok) return
    expect(help.message).toMatch(/^usage: npm run bench --/)
  }
})

test('compare.ts: its options are read, with HEAD and 4 pairs by default', () => {
  expect(parseCompareArgs(['--only', 'GET under load'], NAMES)).toEqual({
    ok: true,
    args: { only: 'GET under load', base: 'HEAD', pairs: 4 },
  })
  expect(parseCompareArgs(['--only', 'overhead', '--base', 'abc123', '--pairs', '6'], NAMES)).toEqual({
    ok: true,
    args: { only: 'overhead', base: 'abc123', pairs: 6 },
  })
})

test('compare.ts: a mistyped option, a missing or unknown scenario and a bad count are refused by name', () => {
  const refused = (argv: string[]) => {
    const parsed = parseCompareArgs(argv, NAMES)
    expect(parsed).toMatchObject({ ok: false, help: false })
    const message = parsed.ok ? '' : parsed.message
    expect(message).toContain('usage: npx node bench/compare.ts')
    return message
  }
  expect(refused(['--only', 'overhead', '--pair', '3'])).toMatch(/'--pair'/)
  expect(refused(['--pairs', '3'])).toMatch(/^--only is required/)
  expect(refused(['--only', 'overhed'])).toMatch(/^--only names no such scenario: "overhed"/)
  for (const pairs of ['0', '51', '2.5', 'four'])
    expect(refused(['--only', 'overhead', '--pairs', pairs])).toMatch(/^--pairs must be a whole number from 1 to 50/)

  const help = parseCompareArgs(['-h'], NAMES)
  expect(help).toMatchObject({ ok: false, help: true })
  expect(help.ok ? '' : help.message).toMatch(/^usage: npx node bench\/compare.ts/)
})

test('opt-in scenarios are named apart in the usage, and --only takes them like any other', () => {
  const names = [...NAMES, 'monitors']
  expect(parseBenchArgs(['--only', 'Monitors'], names, ['monitors'])).toMatchObject({
    ok: true,
    args: { only: ['monitors'] },
  })
  const help = parseBenchArgs(['--help'], names, ['monitors'])
  const message = help.ok ? '' : help.message
  expect(message).toContain('scenarios: "overhead", "GET under load", "concurrent runs"\n')
  expect(message).toContain('run only when --only names them (long): "monitors"')
})

test('a setting that lists values takes each once in any case, and refuses one it does not know', () => {
  const webs = commaList(['templated', 'development', 'held-out'])
  expect(webs.parse(' Development, templated,development')).toEqual(['development', 'templated'])
  const refused = webs.safeParse('development,heldout')
  expect(refused.success).toBe(false)
  expect(JSON.stringify(refused.error?.issues)).toContain('held-out')
  expect(webs.safeParse('').success).toBe(false)
})
