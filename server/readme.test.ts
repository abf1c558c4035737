import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { ConfigSchema } from '#server/config.ts'

test('the README documents every configuration variable', () => {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const rows = new Set([...readme.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]))
  const undocumented = Object.keys(ConfigSchema.shape).filter((name) => !rows.has(name))
  expect(undocumented).toEqual([])
})
