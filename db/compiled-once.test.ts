import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely'
import { expect, test } from 'vitest'
import { compiledOnce } from '#db/compiled-once.ts'
import type { Database } from '#db/schema.ts'

/** A Postgres Kysely that runs nothing and keeps what it was asked to run. */
function recordingDb() {
  const ran: CompiledQuery[] = []
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (kysely) => new PostgresIntrospector(kysely),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => void ran.push(event.query),
  })
  return { db, ran }
}

const eventsAfter = (db: Kysely<Database>, values: { runId: string; afterId: number; limit: number }) =>
  db
    .selectFrom('run_events')
    .select(['id', 'type'])
    .where('run_id', '=', values.runId)
    .where('id', '>', values.afterId)
    .where('type', '<>', 'complete')
    .orderBy('id')
    .limit(values.limit)

test('a query compiled once runs as the builder would, with each call’s values, and is built once', async () => {
  const { db, ran } = recordingDb()
  let built = 0
  const query = compiledOnce((db, values: { runId: string; afterId: number; limit: number }) => {
    built += 1
    return eventsAfter(db, values)
  })
  const calls = [
    { runId: 'a', afterId: 0, limit: 10 },
    { runId: 'b', afterId: 7, limit: 500 },
  ]
  for (const values of calls) await query(db, values)
  expect(built).toBe(1)
  expect(ran.map(({ sql, parameters }) => ({ sql, parameters }))).toEqual(
    calls.map((values) => {
      const { sql, parameters } = eventsAfter(db, values).compile()
      return { sql, parameters }
    }),
  )
  // A value the query holds itself ('complete') stays where it is.
  expect(ran[1]?.parameters).toEqual(['b', 7, 'complete', 500])
})

test('a value used other than as a bound value of its own is refused when the query is compiled', async () => {
  const { db } = recordingDb()
  const joined = compiledOnce((db, { runId }: { runId: string }) =>
    db.selectFrom('runs').select('id').where('id', '=', `${runId}`),
  )
  await expect(joined(db, { runId: 'a' })).rejects.toThrow(/runId is not a bound value of its own/)
  const inlined = compiledOnce((db, { runId }: { runId: string }) =>
    db
      .selectFrom('runs')
      .select('id')
      .where(sql<boolean>`id = ${sql.lit(String(runId))}`),
  )
  await expect(inlined(db, { runId: 'a' })).rejects.toThrow(/not a bound value/)
})
