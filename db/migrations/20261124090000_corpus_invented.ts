import { type Kysely, sql } from 'kysely'

// Corpus documents that are invented (the sample that ships in corpus/sample, or any file whose
// front matter says `invented: true`) are marked, so that every surface can say so. The sample
// already indexed by an earlier version is marked by its URLs, as they were when this was written.
const SAMPLE_URLS = [
  'https://corpus.local/ai-agents/agent-cost-controls',
  'https://corpus.local/ai-agents/agent-evaluation-harnesses',
  'https://corpus.local/ai-agents/durable-long-running-agents',
  'https://corpus.local/ai-agents/mcp-explained',
  'https://corpus.local/ai-agents/mcp-registry-growth',
  'https://corpus.local/ai-agents/mcp-server-security',
  'https://corpus.local/batteries/sodium-ion-cold-weather-tests',
  'https://corpus.local/batteries/sodium-ion-grid-pilot',
  'https://corpus.local/batteries/sodium-ion-two-wheelers',
  'https://corpus.local/batteries/solid-state-pilot-line-yields',
  'https://corpus.local/batteries/solid-state-road-test',
  'https://corpus.local/batteries/sulfide-electrolyte-costs',
  'https://corpus.local/heat-pumps/cold-climate-basics',
  'https://corpus.local/heat-pumps/defrost-cycles',
  'https://corpus.local/heat-pumps/installer-training-push',
  'https://corpus.local/heat-pumps/r290-propane-refrigerant',
  'https://corpus.local/heat-pumps/retrofit-field-study',
  'https://corpus.local/heat-pumps/winter-grid-peak',
]

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('corpus_documents')
    .addColumn('invented', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute()
  await sql`update corpus_documents set invented = true where url = any(${SAMPLE_URLS}::text[])`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('corpus_documents').dropColumn('invented').execute()
}
