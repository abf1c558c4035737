// Kysely builds and compiles a query on every call. For the statements made most often (a GET of a
// finished run checks its owner; every event stream replays its run), that was about a tenth of the
// request's CPU (issue 21). A query made with compiledOnce is built and compiled at its first call,
// with placeholders where its values go, and after that only run: its compiled SQL with each call's
// values in the placeholders' places. The SQL text is the same as the builder's, so it is the same
// named statement (db/database.ts) too.
import type { Compilable, CompiledQuery } from 'kysely'
import type { Db } from '#db/database.ts'

/** Stands for one value while the query is compiled; found again among the compiled parameters. */
class Placeholder {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}

/**
 * A query `build` makes from `values` (each used as a bound value of its own: `where(column, op,
 * value)`, not inside an array or an expression), compiled once by the first database it runs on
 * (ours are all Postgres, with no plugin that rewrites queries) and run on whichever it is given.
 */
export function compiledOnce<Values extends Record<string, unknown>, Row>(
  build: (db: Db, values: Values) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  let template: { query: CompiledQuery<Row>; slots: Array<string | undefined> } | undefined
  const compile = (db: Db) => {
    const placeholders = new Map<string, Placeholder>()
    const values = new Proxy({} as Values, {
      get(_, name) {
        if (typeof name !== 'string') return undefined
        const placeholder = placeholders.get(name) ?? new Placeholder(name)
        placeholders.set(name, placeholder)
        return placeholder
      },
    })
    const query = build(db, values).compile()
    const slots = query.parameters.map((parameter) => (parameter instanceof Placeholder ? parameter.name : undefined))
    const bound = new Set(slots.filter((slot) => slot !== undefined))
    for (const name of placeholders.keys()) {
      if (!bound.has(name)) throw new Error(`compiledOnce: ${name} is not a bound value of its own`)
    }
    return { query, slots }
  }
  return async (db, values) => {
    template ??= compile(db)
    const { query, slots } = template
    const parameters = slots.map((slot, index) => (slot === undefined ? query.parameters[index] : values[slot]))
    const { rows } = await db.executeQuery<Row>({ ...query, parameters })
    return rows
  }
}
