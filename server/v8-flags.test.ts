import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'

const here = path.dirname(fileURLToPath(import.meta.url))
/** V8's OptimizationStatus bit for a function running Sparkplug's baseline code (src/runtime/runtime.h). */
const BASELINE = 1 << 15

/** How V8 runs a function first called after `setup` was imported, in a fresh process. */
async function statusAfter(setup: string | undefined): Promise<number> {
  const script = [
    setup ? `await import(${JSON.stringify(pathToFileURL(setup).href)})` : '',
    'function probe(a) { return a + 1 }',
    'probe(1)',
    "process.stdout.write(String(new Function('f', 'return %GetOptimizationStatus(f)')(probe)))",
  ].join('\n')
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--allow-natives-syntax',
    '--input-type=module',
    '-e',
    script,
  ])
  return Number(stdout)
}

test('the server compiles a function to baseline code at its first call', async () => {
  const byDefault = await statusAfter(undefined)
  expect(byDefault).not.toBe(0) // the status was read (a function's status is never 0)
  expect(byDefault & BASELINE).toBe(0) // V8's default: interpreted at first
  expect((await statusAfter(path.join(here, 'v8-flags.ts'))) & BASELINE).toBe(BASELINE)
})

test("the process entry sets V8's flags before it imports anything else", async () => {
  const entry = await readFile(path.join(here, 'main.ts'), 'utf8')
  const imports = [...entry.matchAll(/^import\b.*$/gm)].map((match) => match[0])
  expect(imports[0]).toBe("import '#server/v8-flags.ts'")
})
