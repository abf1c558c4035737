import { expect, test } from 'vitest'
import { parseBenchArgs } from '#bench/args.ts'

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
