// The corpus_documents table: the local corpus, searched with Postgres full-text search. SQL only, the
// database first. Which files become documents, and which search to try when, is
// server/providers/search/corpus.ts's.
import { sql } from 'kysely'
import type { Db } from '#db/database.ts'

/** A document as indexed: dates are ISO dates (YYYY-MM-DD). */
export type CorpusDocument = {
  url: string
  title: string
  publishedDate: string | null
  text: string
  invented: boolean
}

export type StoredCorpusDocument = CorpusDocument & { indexedAt: string }

/**
 * What a search matches: `all`, documents matching the whole query (web search syntax); `any`,
 * documents matching any of the words, those matching most of them first.
 */
export type CorpusMatch = { all: string } | { any: string[] }

// to_char: a `date` read by pg becomes a local-midnight Date; the contract wants the ISO date.
const publishedDate = sql<string | null>`to_char(published_date, 'YYYY-MM-DD')`.as('publishedDate')

/**
 * Documents that match, best first (then newest, then first indexed), their text cut to
 * `maxCharacters`; with `startPublishedDate`, those published on or after it or undated.
 */
export async function searchCorpusDocuments(
  db: Db,
  match: CorpusMatch,
  options: { startPublishedDate?: string; maxCharacters: number; limit: number },
): Promise<CorpusDocument[]> {
  const words = 'any' in match ? match.any : undefined
  const tsquery = sql`websearch_to_tsquery('english', ${'any' in match ? match.any.join(' or ') : match.all})`
  return db
    .selectFrom('corpus_documents')
    .select(['url', 'title', publishedDate, sql<string>`left(text, ${options.maxCharacters})`.as('text'), 'invented'])
    .where(sql<boolean>`search @@ ${tsquery}`)
    .$if(Boolean(options.startPublishedDate), (qb) =>
      qb.where((eb) =>
        eb.or([eb('published_date', 'is', null), sql<boolean>`published_date >= ${options.startPublishedDate}::date`]),
      ),
    )
    .$if(Boolean(words), (qb) =>
      qb.orderBy(
        sql`(select count(*) from unnest(${words}::text[]) as word where search @@ plainto_tsquery('english', word))`,
        'desc',
      ),
    )
    .orderBy(sql`ts_rank_cd(search, ${tsquery})`, 'desc')
    .orderBy(sql`published_date desc nulls last`)
    .orderBy('id')
    .limit(options.limit)
    .execute()
}

/** Stores the document under its URL, replacing (and re-dating) the one indexed there before. */
export async function upsertCorpusDocument(db: Db, document: CorpusDocument): Promise<void> {
  const row = {
    title: document.title,
    published_date: document.publishedDate,
    text: document.text,
    invented: document.invented,
  }
  await db
    .insertInto('corpus_documents')
    .values({ url: document.url, ...row })
    .onConflict((conflict) => conflict.column('url').doUpdateSet({ ...row, indexed_at: sql`now()` }))
    .execute()
}

/** The corpus document of that URL, for its page; undefined when there is none. */
export async function findCorpusDocument(db: Db, url: string): Promise<StoredCorpusDocument | undefined> {
  const row = await db
    .selectFrom('corpus_documents')
    .select(['url', 'title', publishedDate, 'text', 'invented', 'indexed_at'])
    .where('url', '=', url)
    .executeTakeFirst()
  if (!row) return undefined
  const { indexed_at, ...document } = row
  return { ...document, indexedAt: indexed_at.toISOString() }
}

/** How many documents the corpus holds, and how many of them are invented (the sample). */
export async function countCorpusDocuments(db: Db): Promise<{ documents: number; invented: number }> {
  const row = await db
    .selectFrom('corpus_documents')
    .select((eb) => [
      eb.fn.countAll<string>().as('documents'),
      sql<string>`count(*) filter (where invented)`.as('invented'),
    ])
    .executeTakeFirstOrThrow()
  return { documents: Number(row.documents), invented: Number(row.invented) }
}

/** Whether the corpus holds any document. */
export async function hasCorpusDocuments(db: Db): Promise<boolean> {
  const row = await db.selectFrom('corpus_documents').select('id').limit(1).executeTakeFirst()
  return row !== undefined
}

/** Which of these URLs name an invented document of the local corpus (the sample). */
export async function inventedDocumentUrls(db: Db, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set()
  const rows = await db
    .selectFrom('corpus_documents')
    .select('url')
    .where('invented', '=', true)
    .where('url', 'in', [...new Set(urls)])
    .execute()
  return new Set(rows.map((row) => row.url))
}
