// The migration that marks the invented documents of the corpus: the sample an earlier version indexed
// is marked by its URLs, and a document someone indexed themselves is not.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMigrator, migrateToLatest } from '#db/migrate.ts'
import { createEmptyDatabase, type TestDatabase } from '#test/support/database.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createEmptyDatabase()
})
afterAll(() => database.drop())

test('the sample indexed before is marked invented; other documents are not', async () => {
  const { error } = await createMigrator(database.db).migrateTo('20261123090000_stop_visitor_series')
  expect(error).toBeUndefined()
  await sql`insert into corpus_documents (url, title, text) values
    ('https://corpus.local/heat-pumps/defrost-cycles', 'Defrost cycles', 'Steam.'),
    ('https://corpus.local/ai-agents/mcp-explained', 'MCP explained', 'Tools.'),
    ('https://corpus.local/notes/kelp', 'Kelp', 'Kelp grows.'),
    ('https://intranet.example/report', 'Report', 'Figures.')`.execute(database.db)
  await migrateToLatest(database.db)
  const { rows } = await sql<{ url: string; invented: boolean }>`
    select url, invented from corpus_documents order by url`.execute(database.db)
  expect(rows).toEqual([
    { url: 'https://corpus.local/ai-agents/mcp-explained', invented: true },
    { url: 'https://corpus.local/heat-pumps/defrost-cycles', invented: true },
    { url: 'https://corpus.local/notes/kelp', invented: false },
    { url: 'https://intranet.example/report', invented: false },
  ])
})
