import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { expect, test } from 'vitest'
import { createCorpusSearch, indexCorpusDirectory } from '#server/providers/search/corpus.ts'
import { createExaSearch } from '#server/providers/search/exa.ts'
import { ensureSampleCorpus, sampleCorpusDir } from '#server/providers/search/sample-corpus.ts'
import { ProviderError } from '#server/providers/types.ts'
import { createTestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { STUB_EXA_API_KEY, startStubExa } from '#test/support/stub-exa.ts'

const noDeadline = () => ({ signal: new AbortController().signal })

async function tempCorpus(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-corpus-'))
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await fs.writeFile(path.join(dir, file), content)
  }
  return dir
}

test('exa: searches through exa-js with the date, count and text length, and maps the results', async () => {
  const stub = await startStubExa({
    documents: [
      {
        url: 'https://news.example.com/sodium-ion',
        title: 'Sodium-ion cells reach the grid',
        publishedDate: '2026-11-18T08:00:00.000Z',
        text: `Sodium-ion batteries ${'x'.repeat(500)}`,
      },
      { url: 'https://blog.example.org/sodium/notes/', title: null, publishedDate: '2026-11-03' },
      { url: 'https://old.example.com/sodium', title: 'Old sodium', publishedDate: '2026-01-01', text: 'sodium' },
    ],
  })
  try {
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    const query = { text: 'sodium-ion batteries', startPublishedDate: '2026-11-01', numResults: 5, maxCharacters: 100 }
    const response = await exa.search(query, noDeadline())

    expect(stub.requests).toHaveLength(1)
    expect(stub.requests[0]).toMatchObject({
      method: 'POST',
      path: '/search',
      apiKey: STUB_EXA_API_KEY,
      body: {
        query: 'sodium-ion batteries',
        startPublishedDate: '2026-11-01',
        numResults: 5,
        contents: { text: { maxCharacters: 100 } },
      },
    })
    expect(exa.name).toBe('exa')
    expect(response.results).toEqual([
      {
        url: 'https://news.example.com/sodium-ion',
        title: 'Sodium-ion cells reach the grid',
        publishedDate: '2026-11-18T08:00:00.000Z',
        text: `Sodium-ion batteries ${'x'.repeat(79)}`,
        matchedByMeaning: true,
      },
      // Exa gave no title and no text: the host and path stand in for the title.
      {
        url: 'https://blog.example.org/sodium/notes/',
        title: 'blog.example.org/sodium/notes',
        publishedDate: '2026-11-03',
        text: '',
        matchedByMeaning: true,
      },
    ])
    expect(response.costDollars).toBeCloseTo(0.007)
  } finally {
    await stub.close()
  }
})

test('exa: without a start date none is sent, and older pages come back', async () => {
  const stub = await startStubExa()
  try {
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    const response = await exa.search({ text: 'solid-state roadmap', numResults: 3, maxCharacters: 500 }, noDeadline())
    expect(stub.requests[0]?.body).not.toHaveProperty('startPublishedDate')
    expect(response.results.map((result) => result.publishedDate)).toEqual(['2026-09-02T00:00:00.000Z'])
  } finally {
    await stub.close()
  }
})

test('exa: a search Exa ran by keyword gives pages not marked as matched by meaning', async () => {
  const stub = await startStubExa({ resolvedSearchType: 'keyword' })
  try {
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    const query = { text: 'sodium-ion batteries', numResults: 5, maxCharacters: 100 }
    const response = await exa.search(query, noDeadline())
    expect(response.results.length).toBeGreaterThan(0)
    for (const result of response.results) expect(result.matchedByMeaning).toBeUndefined()
  } finally {
    await stub.close()
  }
})

test('exa: a 429 is retried and the search then succeeds', async () => {
  const stub = await startStubExa()
  try {
    stub.setBehaviour('rate-limit', { times: 1, retryAfterSeconds: 1 })
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    const response = await exa.search({ text: 'sodium-ion grid', numResults: 5, maxCharacters: 200 }, noDeadline())
    expect(stub.requests).toHaveLength(2)
    expect(response.results[0]?.url).toBe('https://news.example.com/sodium-ion-grid')
  } finally {
    await stub.close()
  }
})

test('exa: a wrong key fails at once, naming EXA_API_KEY', async () => {
  const stub = await startStubExa()
  try {
    const exa = createExaSearch({ apiKey: 'wrong', baseUrl: stub.url, timeoutMs: 2000 })
    const failure = await exa
      .search({ text: 'sodium', numResults: 5, maxCharacters: 200 }, noDeadline())
      .catch((e) => e)
    expect(failure).toBeInstanceOf(ProviderError)
    expect(failure).toMatchObject({ provider: 'exa', status: 401, retryable: false })
    expect(failure.message).toContain('EXA_API_KEY')
    expect(stub.requests).toHaveLength(1)
  } finally {
    await stub.close()
  }
})

test('exa: an answer that is not JSON, or a 500 every time, fails as a ProviderError', async () => {
  const stub = await startStubExa()
  try {
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 2000 })
    stub.setBehaviour('garbage')
    const garbage = await exa
      .search({ text: 'sodium', numResults: 5, maxCharacters: 200 }, noDeadline())
      .catch((e) => e)
    expect(garbage).toBeInstanceOf(ProviderError)
    expect(garbage.message).toContain('not JSON')

    stub.setBehaviour('server-error')
    const broken = await exa.search({ text: 'sodium', numResults: 5, maxCharacters: 200 }, noDeadline()).catch((e) => e)
    expect(broken).toBeInstanceOf(ProviderError)
    expect(broken).toMatchObject({ status: 500, retryable: true })
  } finally {
    await stub.close()
  }
})

test('exa: a server that never answers fails after the per-attempt timeout', async () => {
  const stub = await startStubExa()
  try {
    stub.setBehaviour('hang')
    const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stub.url, timeoutMs: 200 })
    const started = performance.now()
    const failure = await exa
      .search({ text: 'sodium', numResults: 5, maxCharacters: 200 }, noDeadline())
      .catch((e) => e)
    expect(failure).toBeInstanceOf(ProviderError)
    expect(failure.message).toContain('did not answer within 0.2 s')
    // Three attempts of 200 ms and two backoffs of at most 0.5 s and 1 s.
    expect(performance.now() - started).toBeLessThan(3000)
    expect(stub.requests).toHaveLength(3)
  } finally {
    await stub.close()
  }
})

test('corpus: the sample corpus answers a battery query with a battery document, and the date filter holds', async () => {
  const database = await createTestDatabase()
  try {
    const { indexed, skipped } = await indexCorpusDirectory(database.db, sampleCorpusDir)
    expect(skipped).toEqual([])
    expect(indexed).toBeGreaterThanOrEqual(16)
    const corpus = createCorpusSearch({ db: database.db })
    expect(corpus.name).toBe('local corpus')

    const all = await corpus.search({ text: 'sodium-ion batteries', numResults: 10, maxCharacters: 120 }, noDeadline())
    expect(all.results[0]?.url).toMatch(/^https:\/\/corpus\.local\/batteries\//)
    expect(all.results[0]?.title).toMatch(/sodium-ion/i)
    expect(all.results.every((result) => result.text.length <= 120)).toBe(true)
    expect(all.results.map((result) => result.publishedDate)).toContain('2026-09-04')
    // The sample is invented (its front matter says so), and every result of it says so.
    expect(all.results.every((result) => result.corpus === 'sample')).toBe(true)
    expect(corpus.corpus).toBe(true)

    const recent = await corpus.search(
      { text: 'sodium-ion batteries', startPublishedDate: '2026-11-14', numResults: 10, maxCharacters: 120 },
      noDeadline(),
    )
    expect(recent.results.length).toBeGreaterThan(0)
    expect(recent.results.length).toBeLessThan(all.results.length)
    expect(recent.results.every((result) => (result.publishedDate ?? '') >= '2026-11-14')).toBe(true)

    // A planned query with words no single document has still finds documents through any of them.
    const planned = await corpus.search(
      { text: 'heat pump defrost coastal humidity zeppelin', numResults: 3, maxCharacters: 50 },
      noDeadline(),
    )
    expect(planned.results[0]?.url).toBe('https://corpus.local/heat-pumps/defrost-cycles')
    expect(planned.results).toHaveLength(3)
  } finally {
    await database.drop()
  }
})

test('corpus: re-indexing updates documents by url; bad files are skipped with a reason', async () => {
  const database = await createTestDatabase()
  const dir = await tempCorpus({
    'notes/kelp.md': '# Kelp farming\n\nKelp farms grow fast in cold water.',
    'plain.txt': 'Tidal turbines spin under the sea.',
    'dated.md': '---\ntitle: "Wave power"\nurl: https://example.com/wave\npublished: 2026-11-02\n---\nWave power text.',
    'made-up.md': '---\ntitle: Moon kelp\ninvented: true\n---\nKelp farms on the moon grow slowly.',
    'bad-invented.md': '---\ninvented: maybe\n---\nText.',
    'bad-date.md': '---\ntitle: Broken\npublished: 2026-13-45\n---\nText.',
    'bad-line.md': '---\nthis is not yaml\n---\nText.',
    'unclosed.md': '---\ntitle: Open\n\nText.',
    'README.md': '# About this folder',
    'image.png': 'not text',
  })
  try {
    const first = await indexCorpusDirectory(database.db, dir)
    expect(first.indexed).toBe(4)
    expect(first.skipped).toEqual([
      { file: 'bad-date.md', reason: expect.stringMatching(/published: must be a date \(YYYY-MM-DD\)/) },
      { file: 'bad-invented.md', reason: expect.stringMatching(/invented: must be true or false/) },
      { file: 'bad-line.md', reason: 'front matter line 2 is not "key: value"' },
      { file: 'unclosed.md', reason: 'its front matter has no closing --- line' },
    ])
    const rows = await database.db
      .selectFrom('corpus_documents')
      .select(['url', 'title', 'invented'])
      .orderBy('url')
      .execute()
    expect(rows).toEqual([
      { url: 'https://corpus.local/made-up', title: 'Moon kelp', invented: true },
      { url: 'https://corpus.local/notes/kelp', title: 'Kelp farming', invented: false },
      { url: 'https://corpus.local/plain', title: 'plain', invented: false },
      { url: 'https://example.com/wave', title: 'Wave power', invented: false },
    ])
    // A result says which kind of document it is: made up, or a document of this server.
    const kelp = await createCorpusSearch({ db: database.db }).search(
      { text: 'kelp farms', numResults: 5, maxCharacters: 100 },
      noDeadline(),
    )
    expect(kelp.results.map((result) => [result.url, result.corpus]).sort()).toEqual([
      ['https://corpus.local/made-up', 'sample'],
      ['https://corpus.local/notes/kelp', 'local'],
    ])

    await fs.writeFile(path.join(dir, 'notes/kelp.md'), '# Kelp farming, revised\n\nKelp now grows in warm water.')
    const second = await indexCorpusDirectory(database.db, dir)
    expect(second.indexed).toBe(4)
    const revised = await database.db
      .selectFrom('corpus_documents')
      .select(['title', 'text'])
      .where('url', '=', 'https://corpus.local/notes/kelp')
      .execute()
    expect(revised).toEqual([{ title: 'Kelp farming, revised', text: 'Kelp now grows in warm water.' }])
    const { count } = await database.db
      .selectFrom('corpus_documents')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
    expect(count).toBe(4)
  } finally {
    await database.drop()
    await fs.rm(dir, { recursive: true, force: true })
  }
})

test('ensureSampleCorpus indexes the sample once, and never over an existing corpus', async () => {
  const database = await createTestDatabase()
  try {
    const indexed = await ensureSampleCorpus(database.db, testLogger())
    expect(indexed).toBeGreaterThanOrEqual(16)
    expect(await ensureSampleCorpus(database.db, testLogger())).toBe(0)
    const rows = await database.db.selectFrom('corpus_documents').select('url').execute()
    expect(rows).toHaveLength(indexed)
    expect(rows.every((row) => row.url.startsWith('https://corpus.local/'))).toBe(true)
  } finally {
    await database.drop()
  }

  // Started next year, the sample is dated as of then: its newest document is from the day before,
  // the spacing of the others kept, so a 30-day brief still finds it.
  const later = await createTestDatabase()
  try {
    await ensureSampleCorpus(later.db, testLogger(), new Date('2027-11-23T15:00:00Z'))
    const dates = (
      await later.db
        .selectFrom('corpus_documents')
        .select(sql<string>`to_char(published_date, 'YYYY-MM-DD')`.as('date'))
        .where('published_date', 'is not', null)
        .orderBy('published_date', 'desc')
        .execute()
    ).map((row) => row.date)
    expect(dates[0]).toBe('2027-11-22')
    const found = await createCorpusSearch({ db: later.db }).search(
      { text: 'sodium-ion', numResults: 5, maxCharacters: 200, startPublishedDate: '2027-10-24' },
      { signal: AbortSignal.timeout(5000) },
    )
    expect(found.results.length).toBeGreaterThan(0)
  } finally {
    await later.drop()
  }

  const other = await createTestDatabase()
  try {
    await other.db
      .insertInto('corpus_documents')
      .values({ url: 'https://mine.example', title: 'Mine', text: 'x' })
      .execute()
    expect(await ensureSampleCorpus(other.db, testLogger())).toBe(0)
  } finally {
    await other.drop()
  }
})
