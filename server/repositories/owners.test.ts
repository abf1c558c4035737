// One repository per table: every statement that writes a table (Kysely's insertInto, updateTable,
// deleteFrom, mergeInto, or SQL's insert into, update, delete from) is in one repository file (of
// server/repositories/, or of a module's repository/). Other repositories may read a table in a join; they compose its writes from
// its owner's SQL (as run-events.ts does with the runs it inserts and advances).
import fs from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
/**
 * The boot step that finishes the sealing migration writes the legacy columns of every table it
 * seals, once, as a migration would (server/seal-legacy.ts says why it is not one).
 */
const MIGRATION_AT_BOOT = 'server/seal-legacy.ts'
/** A repository: server/repositories/, or a module's repository.ts or repository/ (decision 063). */
const REPOSITORY = /^server\/(repositories\/|[^/]+\/repository(\.ts$|\/))/

function tables(): string[] {
  const schema = fs.readFileSync(path.join(ROOT, 'db/schema.ts'), 'utf8')
  const body = /export interface Database \{([^}]*)\}/.exec(schema)?.[1] ?? ''
  return [...body.matchAll(/^\s*(\w+):/gm)].map((match) => match[1] as string)
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.relative(ROOT, path.join(entry.parentPath, entry.name))
    return entry.isFile() && /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) ? [file] : []
  })
}

/** The tables each file writes. */
function writersOf(files: Record<string, string>, names: readonly string[]): Map<string, string[]> {
  const writers = new Map<string, string[]>(names.map((name) => [name, []]))
  for (const [file, text] of Object.entries(files)) {
    for (const name of names) {
      const builder = new RegExp(`\\b(?:insertInto|updateTable|deleteFrom|mergeInto)\\(\\s*['"]${name}['"]`)
      const raw = new RegExp(`\\b(?:insert\\s+into|update|delete\\s+from|merge\\s+into)\\s+${name}\\b(?!\\s*\\()`, 'i')
      if (builder.test(text) || raw.test(text)) writers.get(name)?.push(file)
    }
  }
  return writers
}

test('each table is written by one repository', () => {
  const names = tables()
  expect(names).toContain('runs')
  const files = Object.fromEntries(
    [...sourceFiles('server'), ...sourceFiles('app')]
      .filter((file) => file !== MIGRATION_AT_BOOT)
      .map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]),
  )
  const owners = [...writersOf(files, names)].filter(([, writers]) => writers.length > 0)
  const wrong = owners.filter(([, writers]) => writers.length > 1 || !REPOSITORY.test(writers[0] ?? ''))
  expect(wrong).toEqual([])
  // Every table that is written at all has its owner (a table only migrations write has none).
  expect(owners.length).toBeGreaterThan(15)
})

test('the check sees writes in either form, and not a table named inside another word', () => {
  const writers = writersOf(
    {
      'server/runs/repository/runs.ts': "db.updateTable('runs').set({})",
      'server/runs/repository/events.ts': 'sql`with run as (update runs set current_step = 1)`',
      'server/notify/repository/feeds.ts': "db.insertInto('feeds')",
      'server/series/repository.ts': 'sql`select * from series_runs; update series_runs set x = 1`',
    },
    ['runs', 'feeds', 'series'],
  )
  expect(writers.get('runs')).toEqual(['server/runs/repository/runs.ts', 'server/runs/repository/events.ts'])
  expect(writers.get('feeds')).toEqual(['server/notify/repository/feeds.ts'])
  expect(writers.get('series')).toEqual([])
})
