// The reference pages generated from the code (scripts/docs-reference.ts: configuration from the
// config schema, MCP tools from their registrations, the CLI from its usage, REST from the OpenAPI
// document) are the pages committed under docs/reference/. Needs no database.
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'
import { configurationRows, PAGES, referencePages, root } from '#scripts/docs-reference.ts'
import { ConfigSchema } from '#server/config.ts'

const rendered = referencePages()

for (const page of Object.values(PAGES)) {
  test(`${page} is what the code says`, async () => {
    const committed = fs.readFileSync(path.join(root, page), 'utf8')
    expect(committed, `${page} differs from the code: run npm run docs:reference`).toBe((await rendered)[page])
  })
}

test('every configuration variable says what it means', () => {
  const rows = configurationRows()
  expect(rows.map((row) => row.variable)).toEqual(Object.keys(ConfigSchema.shape))
  const unexplained = rows.filter((row) => row.meaning === '' || row.default === '').map((row) => row.variable)
  expect(unexplained, 'give each of these .meta({ defaultText, meaning }) in server/config.ts').toEqual([])
})
