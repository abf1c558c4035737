// The deployment files as docs/guides/deployment.md describes them (issue 42, item 6): Fly's
// web and worker groups over one database, the client address read from Fly's proxy, and an image
// that holds every file the server reads at run time.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'smol-toml'
import { expect, test } from 'vitest'
import { sampleCorpusDir } from '#server/providers/search/sample-corpus.ts'

const root = path.resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

test('fly.toml runs a web group behind the HTTP service and a worker group, and trusts Fly’s proxy for addresses', () => {
  const fly = parse(read('fly.toml')) as {
    env: Record<string, string>
    processes: Record<string, string>
    http_service: { processes: string[]; checks: Array<{ path: string }> }
  }
  expect(fly.processes.web).toMatch(/RUN_ROLE=web node server\/main\.ts$/)
  expect(fly.processes.worker).toMatch(/RUN_ROLE=worker node server\/main\.ts$/)
  expect(fly.http_service.processes).toEqual(['web'])
  expect(fly.http_service.checks.map((check) => check.path)).toEqual(['/healthz'])
  // Behind Fly's proxy every connection comes from the proxy: without it, one client's limits
  // would be everyone's.
  expect(Number(fly.env.TRUST_PROXY)).toBeGreaterThanOrEqual(1)
  expect(fly.env.NODE_ENV).toBe('production')
})

test('the image installs the lockfile and holds every folder the server reads at run time', () => {
  const dockerfile = read('Dockerfile')
  expect(dockerfile).toMatch(/^RUN npm ci\b/m)
  const stages = dockerfile.split(/^FROM /m)
  const final = stages.at(-1) ?? ''
  const copied = new Set([...final.matchAll(/^COPY --from=build \S+ \/app\/(\S+) /gm)].map((match) => match[1]))
  const imports = JSON.parse(read('package.json')).imports as Record<string, string>
  // The code behind the import aliases the server uses (not the tests' or the bench's), the built
  // app, and the sample corpus a keyless server indexes at boot.
  const runtime = ['#app/*', '#server/*', '#db/*'].map((alias) => (imports[alias] ?? '').replace(/^\.\/|\/\*$/g, ''))
  const corpus = path.relative(root, sampleCorpusDir).split(path.sep)[0]
  for (const folder of [...runtime, 'build', corpus]) expect(copied, folder).toContain(folder)
})
