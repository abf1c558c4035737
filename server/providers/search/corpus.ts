// Search without a web search key: Postgres full-text search over documents indexed from a folder
// of markdown and text files (see corpus/sample for the format). The SQL is
// server/repositories/corpus-documents.ts's; reading the files and which search to try is here.

import fs from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { SearchProvider, SearchQuery, SearchResult } from '#server/providers/types.ts'
import {
  type CorpusDocument,
  type CorpusMatch,
  searchCorpusDocuments,
  upsertCorpusDocument,
} from '#server/repositories/corpus-documents.ts'
import { corpusDocumentUrl } from '#server/text/corpus-url.ts'

export function createCorpusSearch(options: { db: Db }): SearchProvider {
  return {
    name: 'local corpus',
    corpus: true,
    async search(query) {
      const exact = await searchCorpus(options.db, query, { all: query.text })
      if (exact.length) return { results: exact }
      // websearch_to_tsquery wants every word; a planned query ("sodium-ion grid storage costs 2026")
      // rarely has them all in one document, so settle for any of them, most words matched first.
      const words = (query.text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.toLowerCase() !== 'or')
      if (words.length < 2) return { results: [] }
      return { results: await searchCorpus(options.db, query, { any: words }) }
    },
  }
}

async function searchCorpus(db: Db, query: SearchQuery, match: CorpusMatch): Promise<SearchResult[]> {
  const documents = await searchCorpusDocuments(db, match, {
    startPublishedDate: query.startPublishedDate,
    maxCharacters: query.maxCharacters,
    limit: query.numResults,
  })
  return documents.map(({ invented, ...row }): SearchResult => ({ ...row, corpus: invented ? 'sample' : 'local' }))
}

const FrontMatterSchema = z.object({
  title: z.string().trim().min(1, 'must not be empty').optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  published: z.iso.date('must be a date (YYYY-MM-DD)').optional(),
  // Made up (the sample corpus): every page and answer that shows the document says so.
  invented: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
})

class SkipFile extends Error {}

/**
 * Indexes every `.md` and `.txt` file under `dir` (README files describe a folder, they are not
 * documents), upserting by URL so that re-indexing a folder updates it. A file that cannot be
 * indexed is reported in `skipped`; it does not stop the others. With `datedAsOf`, every date moves
 * by one amount so that the newest document is from the day before it, the spacing kept: sample
 * documents stay inside a recent timeframe whenever they are indexed.
 */
export async function indexCorpusDirectory(
  db: Db,
  dir: string,
  options: { datedAsOf?: Date } = {},
): Promise<{ indexed: number; skipped: Array<{ file: string; reason: string }> }> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries
    .filter((entry) => entry.isFile() && /\.(md|txt)$/i.test(entry.name) && !/^readme\./i.test(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => part.startsWith('.')))
    .sort()
  const skipped: Array<{ file: string; reason: string }> = []
  const fileByUrl = new Map<string, string>()
  const documents: CorpusDocument[] = []
  for (const file of files) {
    try {
      const content = await fs.readFile(path.join(dir, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new SkipFile(`it could not be read (${error.code ?? error.message})`)
      })
      const document = parseCorpusFile(file, content)
      const earlier = fileByUrl.get(document.url)
      if (earlier) throw new SkipFile(`has the same url as ${earlier} (${document.url})`)
      fileByUrl.set(document.url, file)
      documents.push(document)
    } catch (error) {
      if (!(error instanceof SkipFile)) throw error
      skipped.push({ file, reason: error.message })
    }
  }
  for (const document of options.datedAsOf ? datedAsOf(documents, options.datedAsOf) : documents) {
    await upsertCorpusDocument(db, document)
  }
  return { indexed: documents.length, skipped }
}

const DAY_MS = 86_400_000

/** The documents with every date moved so that the newest is from the day before `day`. */
function datedAsOf(documents: CorpusDocument[], day: Date): CorpusDocument[] {
  const dates = documents.flatMap((document) => (document.publishedDate ? [Date.parse(document.publishedDate)] : []))
  if (dates.length === 0) return documents
  const yesterday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) - DAY_MS
  const shift = yesterday - Math.max(...dates)
  return documents.map((document) =>
    document.publishedDate
      ? {
          ...document,
          publishedDate: new Date(Date.parse(document.publishedDate) + shift).toISOString().slice(0, 10),
        }
      : document,
  )
}

/** A file as a document: front matter (optional), then the text. `file` is relative to the corpus folder. */
function parseCorpusFile(file: string, content: string): CorpusDocument {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/)
  const fields: Record<string, string> = {}
  let bodyStart = 0
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---')
    if (end === -1) throw new SkipFile('its front matter has no closing --- line')
    for (const [index, line] of lines.slice(1, end).entries()) {
      if (!line.trim() || line.trimStart().startsWith('#')) continue
      const match = /^([A-Za-z_][\w-]*):\s*(.*?)\s*$/.exec(line)
      if (!match?.[1]) throw new SkipFile(`front matter line ${index + 2} is not "key: value"`)
      fields[match[1]] = (match[2] ?? '').replace(/^(["'])(.*)\1$/, '$2')
    }
    bodyStart = end + 1
  }
  const parsed = FrontMatterSchema.safeParse(fields)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new SkipFile(`bad front matter (${issues.join('; ')})`)
  }
  const body = lines.slice(bodyStart).join('\n').trim()
  // A leading "# Heading" is the page title: stored as the title, not repeated at the start of the text.
  const heading = /^#\s+(.+?)\s*#*\s*(?:\n|$)/.exec(body)
  const text = (heading ? body.slice(heading[0].length) : body).trim()
  if (!text) throw new SkipFile('it has no text')
  const stem = file.replace(/\.(md|txt)$/i, '')
  return {
    url: parsed.data.url ?? corpusDocumentUrl(stem.split(path.sep)),
    title: parsed.data.title ?? heading?.[1] ?? path.basename(stem),
    publishedDate: parsed.data.published ?? null,
    text,
    invented: parsed.data.invented === 'true',
  }
}
