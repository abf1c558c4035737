// No test's verdict may depend on the machine's speed (README, "How work gets done"). vi.waitFor
// gives up after one second unless told otherwise, so a wait written without a budget passes on an
// idle machine and fails on a busy one (test/provider-turns.test.ts did, once, in a fresh-clone run).
// Every vi.waitFor in the suite names its own timeout. And a wait counts its budget on the monotonic
// clock: a busy virtual machine's wall clock is stepped forward now and then, and a 25 s budget
// counted with Date.now() once ran out 17 s into a test (test/security/connections.test.ts, in a
// fresh-clone run beside two CPU-bound processes).
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '..')

/** The TypeScript files under `dir`: tests and their support. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) && full !== import.meta.filename ? [full] : []
  })
}

/** Each `vi.waitFor(...)` call in the text, whole (its parentheses balanced). */
function waitForCalls(text: string): string[] {
  const calls: string[] = []
  for (let start = text.indexOf('vi.waitFor('); start >= 0; start = text.indexOf('vi.waitFor(', start + 1)) {
    let depth = 0
    let end = start + 'vi.waitFor'.length
    do {
      if (text[end] === '(') depth += 1
      else if (text[end] === ')') depth -= 1
      end += 1
    } while (depth > 0 && end < text.length)
    calls.push(text.slice(start, end))
  }
  return calls
}

test('finds a vi.waitFor call whole, with its options or without', () => {
  const text = 'await vi.waitFor(() => expect(f(1)).toBe(2))\nawait vi.waitFor(async () => g(), { timeout: 5 })'
  expect(waitForCalls(text)).toEqual([
    'vi.waitFor(() => expect(f(1)).toBe(2))',
    'vi.waitFor(async () => g(), { timeout: 5 })',
  ])
})

test('every vi.waitFor in the suite names a timeout (SETTLED or its own), not the one-second default', () => {
  const unbudgeted = ['test', 'server', 'app', 'bench', 'db'].flatMap((dir) =>
    sourceFiles(path.join(ROOT, dir)).flatMap((file) =>
      waitForCalls(fs.readFileSync(file, 'utf8'))
        .filter((call) => !/timeout|SETTLED/.test(call))
        .map((call) => `${path.relative(ROOT, file)}: ${call.split('\n')[0]}`),
    ),
  )
  expect(unbudgeted).toEqual([])
})

/**
 * Lines that count a wait's deadline, or measure how long something took, on the wall clock
 * (Date.now()) rather than on performance.now().
 */
function wallClockDeadlines(text: string): string[] {
  return text
    .split('\n')
    .filter(
      (line) =>
        (/deadline/i.test(line) && /Date\.now\(\)\s*[-+<>]|[<>]=?\s*Date\.now\(\)/.test(line)) ||
        /expect\(Date\.now\(\) -/.test(line),
    )
    .filter((line) => !/new Date\(Date\.now\(\)/.test(line))
}

test('finds a deadline or a duration counted on the wall clock, and leaves a date set from it alone', () => {
  const text = [
    'const deadline = Date.now() + 20_000',
    'while (busy() && Date.now() < deadline) {}',
    'const deadline = performance.now() + 20_000',
    'deadlineAt: new Date(Date.now() + 3_600_000),',
    'expect(Date.now() - started).toBeLessThan(3000)',
    'expect(performance.now() - started).toBeLessThan(3000)',
  ].join('\n')
  expect(wallClockDeadlines(text)).toEqual([
    'const deadline = Date.now() + 20_000',
    'while (busy() && Date.now() < deadline) {}',
    'expect(Date.now() - started).toBeLessThan(3000)',
  ])
})

test('every wait and every measured duration in the suite is counted on the monotonic clock', () => {
  const wallClocked = ['test', 'server', 'app', 'bench', 'db'].flatMap((dir) =>
    sourceFiles(path.join(ROOT, dir))
      .filter((file) => /\.test\.tsx?$|\/test\/support\//.test(file))
      .flatMap((file) =>
        wallClockDeadlines(fs.readFileSync(file, 'utf8')).map((line) => `${path.relative(ROOT, file)}: ${line.trim()}`),
      ),
  )
  expect(wallClocked).toEqual([])
})
