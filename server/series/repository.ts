// The series table: SQL only, the database (or the caller's transaction) first. A series' brief is
// sealed, bound to its row: the statements that write or read it are createSeriesBriefs', built from
// the key ring, and give the series with its brief opened and read by the stored brief's schema
// (decision 064). What a series means (its slots, pausing and resuming) is schedule.ts's.
import type { Insertable, Selectable, SqlBool, Updateable } from 'kysely'
import type { Db } from '#db/database.ts'
import type { SeriesTable } from '#db/schema.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { sealedColumn } from '#server/crypto/sealed-column.ts'
import { UUID } from '#server/text/uuid.ts'
import { type Brief, StoredBriefSchema } from '#server/vocabulary/brief.ts'

/** A series' row, its sealed brief left out: only createSeriesBriefs reads it. */
export type SeriesRow = Omit<Selectable<SeriesTable>, 'brief' | 'brief_key_id' | 'legacy_brief'>
/** A series' row with its brief opened. */
export type SeriesWithBrief = SeriesRow & { brief: Brief }

/** A series with what its view needs: its latest run, and whether a run is going now. */
export type SeriesViewRow = SeriesWithBrief & { last_run_id: string | null; running: SqlBool }

/** What binds a series' sealed brief to its row. */
export const seriesBriefData = (seriesId: string) => `series_brief:${seriesId}`

/** The columns a series' row is read with, all but the sealed brief's. */
const SERIES_COLUMNS = [
  'series.id',
  'series.account_id',
  'series.status',
  'series.slot',
  'series.next_run_at',
  'series.scheduled_after_run_id',
  'series.every_seconds',
  'series.cron',
  'series.time_zone',
  'series.notify',
  'series.email_digest',
  'series.created_at',
  'series.updated_at',
] as const
/** The sealed brief's pair, which only createSeriesBriefs reads. */
const SEALED_BRIEF = ['series.brief_key_id', 'series.brief'] as const

/** A series to store, with its brief (sealed here). */
export type NewSeries = Omit<Insertable<SeriesTable>, 'brief' | 'brief_key_id' | 'legacy_brief'> & {
  id: string
  brief: Brief
}

/** A change to a series' columns, its brief not among them. */
export type SeriesChanges = Omit<Updateable<SeriesTable>, 'updated_at' | 'brief' | 'brief_key_id' | 'legacy_brief'>

/** The statements that write or read a series' sealed brief, with its codec built once from the ring. */
export function createSeriesBriefs(ring: KeyRing) {
  const brief = sealedColumn(ring, { name: 'series.brief', schema: StoredBriefSchema, associatedData: seriesBriefData })
  type Sealed = Pick<Selectable<SeriesTable>, 'id' | 'brief_key_id' | 'brief'>
  function opened<R extends Sealed>(row: R): Omit<R, 'brief' | 'brief_key_id'> & { brief: Brief } {
    const { brief_key_id, brief: sealed, ...rest } = row
    const value = brief.open({ keyId: brief_key_id, ciphertext: sealed }, row.id)
    if (!value) throw new Error(`series ${row.id} has no sealed brief (was the database upgraded without booting?)`)
    return { ...rest, brief: value }
  }
  const withBrief = (db: Db) => db.selectFrom('series').select(SERIES_COLUMNS).select(SEALED_BRIEF)
  return {
    async insert(db: Db, input: NewSeries): Promise<void> {
      const { brief: value, ...values } = input
      const sealed = brief.seal(value, input.id)
      await db
        .insertInto('series')
        .values({ ...values, brief_key_id: sealed.keyId, brief: sealed.ciphertext })
        .execute()
    },

    /** Stores the series' brief as now written, with the columns that follow from it. */
    async update(db: Db, seriesId: string, value: Brief, changes: SeriesChanges): Promise<void> {
      const sealed = brief.seal(value, seriesId)
      await db
        .updateTable('series')
        .set({ ...changes, brief_key_id: sealed.keyId, brief: sealed.ciphertext, updated_at: new Date() })
        .where('id', '=', seriesId)
        .execute()
    },

    /** The series with its brief, locked as lockSeries locks it. */
    async lock(db: Db, seriesId: string, accountId?: string): Promise<SeriesWithBrief | undefined> {
      let query = withBrief(db).where('series.id', '=', seriesId)
      if (accountId) query = query.where('series.account_id', '=', accountId)
      const row = await query.forUpdate().executeTakeFirst()
      return row && opened(row)
    },

    /**
     * The series with its brief, locked as lockSeries does, unless another transaction holds its lock:
     * then 'busy', at once, rather than waiting for it. For a request that may arrive many at a time
     * ("run now"): a queue of transactions each holding a connection while it waits on one row can
     * leave the one holding the lock without a connection for its own next statement.
     */
    async lockUnlessBusy(db: Db, seriesId: string, accountId: string): Promise<SeriesWithBrief | 'busy' | undefined> {
      const theirs = db
        .selectFrom('series')
        .where('series.id', '=', seriesId)
        .where('series.account_id', '=', accountId)
      const locked = await theirs
        .select(SERIES_COLUMNS)
        .select(SEALED_BRIEF)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst()
      if (locked) return opened(locked)
      return (await theirs.select('series.id').executeTakeFirst()) ? 'busy' : undefined
    },

    /** The account's series, newest first. */
    async list(db: Db, accountId: string): Promise<SeriesViewRow[]> {
      const rows = await seriesViewRows(db, accountId).orderBy('series.created_at', 'desc').execute()
      return rows.map(opened)
    },

    /** The account's series; malformed ids find nothing. */
    async find(db: Db, seriesId: string, accountId: string): Promise<SeriesViewRow | undefined> {
      if (!UUID.test(seriesId)) return undefined
      const row = await seriesViewRows(db, accountId).where('series.id', '=', seriesId).executeTakeFirst()
      return row && opened(row)
    },
  }
}

export type SeriesBriefs = ReturnType<typeof createSeriesBriefs>

/**
 * The series, locked for the rest of the caller's transaction (its slot and status change only under
 * this lock); with accountId, only when it belongs to that account.
 */
export async function lockSeries(db: Db, seriesId: string, accountId?: string): Promise<SeriesRow | undefined> {
  let query = db.selectFrom('series').select(SERIES_COLUMNS).where('id', '=', seriesId)
  if (accountId) query = query.where('account_id', '=', accountId)
  return query.forUpdate().executeTakeFirst()
}

export async function updateSeries(db: Db, seriesId: string, values: SeriesChanges): Promise<void> {
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
    .select(SERIES_COLUMNS)
    .select(SEALED_BRIEF)
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
