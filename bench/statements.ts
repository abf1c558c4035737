// `npm run bench -- --statements`: what each scenario asked of Postgres, from pg_stat_statements on
// the embedded cluster (loaded with EMBEDDED_PG_SETTINGS): every statement's calls, total time and
// rows, the most expensive first, so a round trip per run shows up as calls / runs.
import pg from 'pg'
import { runningEmbeddedPostgresUrl } from '#db/embedded.ts'

export const STATEMENTS_SETTINGS = 'shared_preload_libraries=pg_stat_statements pg_stat_statements.track=all'

export type StatementRow = { query: string; calls: number; totalMs: number; rows: number }

export type StatementRecorder = {
  /** Forgets what was recorded so far. */
  reset: () => Promise<void>
  /** The statements since the last reset, by total execution time, the recorder's own left out. */
  read: () => Promise<StatementRow[]>
  /** Runs created since `since`: what the statements are divided by. */
  runsSince: (since: Date) => Promise<number>
  close: () => Promise<void>
}

/** Connects to the embedded Postgres of a running server (its data directory) and loads the extension. */
export async function recordStatements(dataDir: string): Promise<StatementRecorder> {
  const url = runningEmbeddedPostgresUrl(dataDir)
  if (!url) throw new Error('--statements needs the embedded Postgres (unset BENCH_DATABASE_URL)')
  const client = new pg.Client({ connectionString: url, application_name: 'sextant-bench-statements' })
  await client.connect()
  await client.query('create extension if not exists pg_stat_statements')
  return {
    async reset() {
      await client.query('select pg_stat_statements_reset()')
    },
    async read() {
      const { rows } = await client.query<{ query: string; calls: string; total: number; rows: string }>(
        `select query, calls, total_exec_time as total, rows from pg_stat_statements
         where query not like '%pg_stat_statements%' order by total_exec_time desc`,
      )
      return rows.map((row) => ({
        query: row.query.replace(/\s+/g, ' ').trim(),
        calls: Number(row.calls),
        totalMs: row.total,
        rows: Number(row.rows),
      }))
    },
    async runsSince(since) {
      const { rows } = await client.query<{ count: string }>('select count(*) from runs where created_at >= $1', [
        since,
      ])
      return Number(rows[0]?.count ?? 0)
    },
    close: () => client.end(),
  }
}

/** The statements as lines: calls (and per run), total ms, the query cut to `width`. */
export function formatStatements(statements: StatementRow[], runs: number, top = 25, width = 150): string {
  const calls = statements.reduce((total, row) => total + row.calls, 0)
  const ms = statements.reduce((total, row) => total + row.totalMs, 0)
  const perRun = (value: number) => (runs > 0 ? (value / runs).toFixed(1) : '-')
  return [
    `  ${calls} statements (${perRun(calls)} per run over ${runs} runs), ${ms.toFixed(0)} ms executing`,
    ...statements
      .slice(0, top)
      .map(
        (row) =>
          `  ${String(row.calls).padStart(6)} ${perRun(row.calls).padStart(6)}/run ${row.totalMs.toFixed(0).padStart(6)} ms  ${row.query.slice(0, width)}`,
      ),
  ].join('\n')
}
