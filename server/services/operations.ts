// What the server says about itself and its offline corpus: health and readiness checks, and the
// corpus's documents (read on their pages, counted for the banner and the pages, indexed by the CLI).
import type { Db } from '#db/database.ts'
import { pingDatabase } from '#db/database.ts'
import { pendingMigrations } from '#db/migrate.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { probeQueue } from '#server/jobs/queue-probe.ts'
import { indexCorpusDirectory } from '#server/providers/search/corpus.ts'
import {
  countCorpusDocuments,
  findCorpusDocument,
  type StoredCorpusDocument,
} from '#server/repositories/corpus-documents.ts'

export function createHealthService(deps: { db: Db; jobs: Jobs }) {
  const { db, jobs } = deps
  return {
    /** Resolves when the database answers a query. */
    ping: () => pingDatabase(db),
    /** Migrations this code has that the database has not applied. */
    pendingMigrations: () => pendingMigrations(db),
    jobsRunning: () => jobs.isRunning(),
    /** Resolves when a run's job could be queued now (a rolled-back insert); rejects with why not. */
    probeRunQueue: () => probeQueue(db, jobs),
  }
}

export function createCorpusService(deps: { db: Db }) {
  const { db } = deps
  return {
    /** The document of that corpus URL, for its page; undefined when there is none. */
    document: (url: string): Promise<StoredCorpusDocument | undefined> => findCorpusDocument(db, url),
    /** How many documents the corpus holds, and how many are invented (the sample). */
    count: () => countCorpusDocuments(db),
    /** Indexes a directory of markdown and text files (the CLI's `corpus index`). */
    index: (dir: string) => indexCorpusDirectory(db, dir),
  }
}

export type HealthService = ReturnType<typeof createHealthService>
export type CorpusService = ReturnType<typeof createCorpusService>
