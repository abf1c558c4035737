// `npm start` must work right after `npm install`: build the React Router app when there is no
// build, or when sources are newer than the build and the build tool is installed.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from '#server/logger.ts'

export const projectRoot = path.resolve(import.meta.dirname, '..', '..')
export const serverBuildPath = path.join(projectRoot, 'build', 'server', 'index.js')
export const clientBuildDir = path.join(projectRoot, 'build', 'client')

const SOURCES = ['app', 'server', 'db', 'public', 'vite.config.ts', 'react-router.config.ts', 'package-lock.json']

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)))
  return newest
}

/** The build tool, when dev dependencies are installed (it does not export its bin, so find the file). */
function builderBin(): string | undefined {
  const bin = path.join(projectRoot, 'node_modules', '@react-router', 'dev', 'bin.js')
  return fs.existsSync(bin) ? bin : undefined
}

export function buildState(): 'missing' | 'stale' | 'fresh' {
  const built = fs.statSync(serverBuildPath, { throwIfNoEntry: false })
  if (!built) return 'missing'
  const newestSource = Math.max(...SOURCES.map((source) => newestMtime(path.join(projectRoot, source))))
  return newestSource > built.mtimeMs ? 'stale' : 'fresh'
}

export async function ensureAppBuild(log: Logger): Promise<void> {
  const state = buildState()
  if (state === 'fresh') return
  const bin = builderBin()
  if (!bin) {
    if (state === 'missing')
      throw new Error(
        'There is no app build and @react-router/dev is not installed: run `npm install && npm run build`.',
      )
    log.warn('the app build is older than its sources; run `npm run build` to refresh it')
    return
  }
  log.info({ reason: state }, 'building the web app (once; `npm run build` does this ahead of time)')
  const started = Date.now()
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`The app build failed:\n${output}`))))
  })
  log.info({ ms: Date.now() - started }, 'web app built')
}
