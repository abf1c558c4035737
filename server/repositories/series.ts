// The series table: SQL only, the database (or the caller's transaction) first. What a series means
// (its sealed brief, its slots, pausing and resuming) is server/research/series.ts's.
import type { Insertable, Selectable, SqlBool, Updateable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { SeriesTable } from '#db/schema.ts'
import { UUID } from '#server/text/uuid.ts'

export type SeriesRow = Selectable<SeriesTable>

/** A series with what its view needs: its latest run, and whether a run is going now. */
export type SeriesViewRow = SeriesRow & { last_run_id: string | null; running: SqlBool }

export async function insertSeries(db: Db, values: Insertable<SeriesTable>): Promise<void> {
  await db.insertInto('series').values(values).execute()
}

/**
 * The series, locked for the rest of the caller's transaction (its slot and status change only under
 * this lock); with accountId, only when it belongs to that account.
 */
export async function lockSeries(db: Db, seriesId: string, accountId?: string): Promise<SeriesRow | undefined> {
  let query = db.selectFrom('series').selectAll().where('id', '=', seriesId)
  if (accountId) query = query.where('account_id', '=', accountId)
  return query.forUpdate().executeTakeFirst()
}

/**
 * The series, locked as lockSeries does, unless another transaction holds its lock: then 'busy', at
 * once, rather than waiting for it. For a request that may arrive many at a time ("run now"): a queue
 * of transactions each holding a connection while it waits on one row can leave the one holding the
 * lock without a connection for its own next statement.
 */
export async function lockSeriesUnlessBusy(
  db: Db,
  seriesId: string,
  accountId: string,
): Promise<SeriesRow | 'busy' | undefined> {
  const theirs = db.selectFrom('series').where('id', '=', seriesId).where('account_id', '=', accountId)
  const locked = await theirs.selectAll().forUpdate().skipLocked().executeTakeFirst()
  if (locked) return locked
  return (await theirs.select('id').executeTakeFirst()) ? 'busy' : undefined
}

export async function updateSeries(
  db: Db,
  seriesId: string,
  values: Omit<Updateable<SeriesTable>, 'updated_at'>,
): Promise<void> {
  await db
    .updateTable('series')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', seriesId)
    .execute()
}

/** What a run's view says of its series: no brief to open. */
export async function findSeriesSchedule(
  db: Db,
  seriesId: string,
): Promise<Pick<SeriesRow, 'id' | 'status' | 'next_run_at'> | undefined> {
  return db.selectFrom('series').select(['id', 'status', 'next_run_at']).where('id', '=', seriesId).executeTakeFirst()
}

function seriesViewRows(db: Db, accountId: string) {
  return db
    .selectFrom('series')
    .selectAll('series')
    .select((eb) => [
      eb
        .selectFrom('runs')
        .select('runs.id')
        .whereRef('runs.series_id', '=', 'series.id')
        .orderBy('runs.created_at', 'desc')
        .limit(1)
        .as('last_run_id'),
      eb
        .exists(
          eb
            .selectFrom('runs')
            .select('runs.id')
            .whereRef('runs.series_id', '=', 'series.id')
            .where('runs.status', '=', 'running'),
        )
        .as('running'),
    ])
    .where('series.account_id', '=', accountId)
}

/** The account's series, newest first. */
export async function listSeriesViewRows(db: Db, accountId: string): Promise<SeriesViewRow[]> {
  return seriesViewRows(db, accountId).orderBy('series.created_at', 'desc').execute()
}

/** The account's series; malformed ids find nothing. */
export async function findSeriesViewRow(
  db: Db,
  seriesId: string,
  accountId: string,
): Promise<SeriesViewRow | undefined> {
  if (!UUID.test(seriesId)) return undefined
  return seriesViewRows(db, accountId).where('series.id', '=', seriesId).executeTakeFirst()
}
