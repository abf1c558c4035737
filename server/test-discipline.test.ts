// No test's verdict may depend on the machine's speed (README, "How work gets done"). vi.waitFor
// gives up after one second unless told otherwise, so a wait written without a budget passes on an
// idle machine and fails on a busy one (test/provider-turns.test.ts did, once, in a fresh-clone run).
// Every vi.waitFor in the suite names its own timeout.
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
