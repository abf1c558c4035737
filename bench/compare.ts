// `npx node bench/compare.ts --only <scenario> [--base <ref>] [--pairs <n>]`: one scenario of
// `npm run bench`, run in turn on the code at <ref> (default HEAD; checked out in a temporary git
// worktree) and on this working tree, uncommitted changes included; prints each metric's values side
// by side. This machine's speed drifts by a fifth or more within minutes, so a change is judged by
// runs made one after the other, not against a figure from earlier (decision 030). Pairs go in ABBA
// order (base, new, new, base, ...), so a steady drift does not favour either side.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseCompareArgs } from '#bench/args.ts'
import { type ComparedRun, formatComparison, parseTable } from '#bench/measure.ts'
import { SCENARIO_NAMES } from '#bench/scenarios/all.ts'
import { projectRoot } from '#server/http/app-build.ts'

const parsed = parseCompareArgs(process.argv.slice(2), SCENARIO_NAMES)
if (!parsed.ok) {
  ;(parsed.help ? console.log : console.error)(parsed.message)
  process.exit(parsed.help ? 0 : 2)
}
const { only, base, pairs } = parsed.args

const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { cwd: projectRoot, encoding: 'utf8' }).trim()
let baseCommit: string
try {
  baseCommit = git('rev-parse', '--verify', '--quiet', `${base}^{commit}`)
} catch {
  console.error(`--base names no commit of this repository: "${base}"`)
  process.exit(2)
}
// The base runs on this checkout's node_modules: it must want the same packages.
const lockfile = fs.readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')
if (git('show', `${baseCommit}:package-lock.json`) !== lockfile.trim()) {
  console.error(`${base} has other dependencies than this working tree (package-lock.json differs).`)
  process.exit(2)
}

const baseDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-bench-base-'))
git('worktree', 'add', '--detach', '--force', baseDir, baseCommit)
fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(baseDir, 'node_modules'))
const removeBase = () => {
  git('worktree', 'remove', '--force', baseDir)
  fs.rmSync(baseDir, { recursive: true, force: true })
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    removeBase()
    process.exit(130)
  })
}

/** One `npm run bench -- --only <scenario>` in `dir`: its printed rows. */
async function benchIn(dir: string): Promise<ComparedRun['rows']> {
  const log = path.join(dir, 'bench', 'results', 'compare.log')
  fs.mkdirSync(path.dirname(log), { recursive: true })
  const output = fs.openSync(log, 'w')
  const child = spawn(process.execPath, ['bench/run.ts', '--only', only], {
    cwd: dir,
    stdio: ['ignore', output, output],
  })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  fs.closeSync(output)
  if (code !== 0) throw new Error(`the bench failed in ${dir} (exit ${code}); its output is in ${log}`)
  const results = JSON.parse(fs.readFileSync(path.join(dir, 'bench', 'results', 'latest.json'), 'utf8'))
  return parseTable(results.table as string)
}

const runs: ComparedRun[] = []
try {
  console.error(`${only}: ${base} (${baseCommit.slice(0, 7)}) against this working tree, ${pairs} pairs`)
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? (['base', 'new'] as const) : (['new', 'base'] as const)
    for (const side of order) {
      console.error(`- pair ${pair + 1}, ${side} ...`)
      runs.push({ side, rows: await benchIn(side === 'base' ? baseDir : projectRoot) })
    }
  }
} finally {
  removeBase()
}
console.log(formatComparison(runs))
