import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { ConfigSchema } from '#server/config.ts'

test('the configuration reference documents every configuration variable', () => {
  const reference = fs.readFileSync(
    path.join(import.meta.dirname, '..', 'docs', 'reference', 'configuration.md'),
    'utf8',
  )
  const rows = new Set([...reference.matchAll(/^\| `([A-Z_]+)` +\|/gm)].map((match) => match[1]))
  const undocumented = Object.keys(ConfigSchema.shape).filter((name) => !rows.has(name))
  expect(undocumented).toEqual([])
})
