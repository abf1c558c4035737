import { createHash } from 'node:crypto'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Database } from '#db/schema.ts'
import type { Logger } from '#server/logger.ts'

export type Db = Kysely<Database>

// Return BIGINT/COUNT as numbers (they never exceed 2^53 here) and NUMERIC as numbers too.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value))

/**
 * `prepare`: send each parameterised statement as a named statement, which Postgres parses and plans
 * once per connection instead of every time (see preparedStatements below).
 * `idleSeconds`: how long an idle connection stays open, 0 for as long as the pool lives (pg's
 * default, 10 s, when not given: short-lived tools then exit without ending their pool).
 */
export function createPool(
  connectionString: string,
  max: number,
  log: Logger,
  options: { prepare?: boolean; idleSeconds?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'sextant',
    // A bounded wait for a connection: with the database down, requests fail instead of hanging.
    connectionTimeoutMillis: 5000,
    ...(options.idleSeconds === undefined ? {} : { idleTimeoutMillis: options.idleSeconds * 1000 }),
    // Over TCP, idle connections are probed: one a firewall or NAT dropped fails and is replaced
    // instead of hanging the next statement (no effect on the embedded Postgres's Unix socket).
    keepAlive: true,
  })
  // An idle client losing its connection (a Postgres restart) must not crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'idle database connection failed'))
  // Nor a checked-out one: pg-pool listens only on idle clients, so a connection the server ends
  // while it sits in a transaction between statements would emit 'error' with no one listening,
  // and Node ends the process. The statement that comes next fails, the transaction with it, and
  // the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => log.warn({ err: error }, 'database connection lost while in use'))
    if (options.prepare) preparedStatements(client)
  })
  return pool
}

/**
 * Statements that are not named:
 * - whose result columns are `*` (a whole row, `returning *`): once a migration adds a column,
 *   Postgres refuses a prepared statement whose result type changed;
 * - whose ON CONFLICT target has a WHERE (a partial unique index): after a few executions Postgres
 *   plans a named statement generically, and then cannot prove a parameter in that WHERE matches the
 *   index, and refuses the insert ("no unique or exclusion constraint matching").
 */
const NOT_NAMED = [
  /(?:\bselect(?:\s+distinct)?|\breturning|,)\s+(?:"?\w+"?\.)?\*/i,
  /\bon conflict\s*\([^)]*\)\s*where\b/i,
]
/** Statement names by text; cleared when full (a name is the text's hash, so nothing is lost). */
const statementNames = new Map<string, string | null>()
const MAX_STATEMENT_NAMES = 2000

function statementName(text: string): string | null {
  let name = statementNames.get(text)
  if (name === undefined) {
    name = NOT_NAMED.some((pattern) => pattern.test(text))
      ? null
      : `s_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear()
    statementNames.set(text, name)
  }
  return name
}

/**
 * Kysely sends every statement as (text, values): this client sends the parameterised ones as named
 * statements instead. The driver prepares a name on first use on a connection and reuses it after;
 * Postgres then skips parsing and planning, which was about a quarter of its CPU per run (issue 21).
 */
function preparedStatements(client: pg.PoolClient) {
  // The class's query, looked up at each call (so whatever wraps the class's method still sees it).
  const query = (...args: unknown[]) =>
    (Object.getPrototypeOf(client).query as (...args: unknown[]) => unknown).apply(client, args)
  const named = (text: unknown, values?: unknown, callback?: unknown) => {
    const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 ? statementName(text) : null
    if (!name || typeof text !== 'string') return query(text, values, callback)
    // A Query made from the text, then named: pg copies a config object ({ name, text, values })
    // descriptor by descriptor before reading it, which cost more than the rest of the wrapper.
    const send = (answer: (error: Error | undefined, result: unknown) => void) => {
      const statement = new pg.Query(text, values as unknown[], answer)
      query(Object.assign(statement, { name }))
    }
    if (typeof callback === 'function')
      return void send(callback as (error: Error | undefined, result: unknown) => void)
    return new Promise((resolve, reject) => send((error, result) => (error ? reject(error) : resolve(result))))
  }
  Object.assign(client, { query: named })
}

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
}

export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db)
}
