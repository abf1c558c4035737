// The sample corpus that ships in corpus/sample, so that a first run without EXA_API_KEY has
// something to find.
import path from 'node:path'
import type { Db } from '#db/database.ts'
import type { Logger } from '#server/logger.ts'
import { indexCorpusDirectory } from '#server/providers/search/corpus.ts'
import { hasCorpusDocuments } from '#server/repositories/corpus-documents.ts'

export const sampleCorpusDir = path.resolve(import.meta.dirname, '..', '..', '..', 'corpus', 'sample')

/**
 * Indexes the sample corpus when the corpus is empty (never over documents someone indexed), dated
 * as of today: the newest sample document is from yesterday, so a default 30-day brief finds it
 * whatever year Sextant is first started in.
 */
export async function ensureSampleCorpus(db: Db, log: Logger, today = new Date()): Promise<number> {
  if (await hasCorpusDocuments(db)) return 0
  const { indexed, skipped } = await indexCorpusDirectory(db, sampleCorpusDir, { datedAsOf: today })
  for (const { file, reason } of skipped) log.warn({ file, reason }, 'sample corpus file skipped')
  log.info({ indexed, dir: sampleCorpusDir }, 'indexed the sample corpus for searching without EXA_API_KEY')
  return indexed
}
