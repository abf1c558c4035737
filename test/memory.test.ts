import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec, type KeyRing, parseKeyRing, sealJson } from '#server/crypto/key-ring.ts'
import { type MemoryContribution, MemoryUnreadableError } from '#server/topics/contract.ts'
import { contributedFact } from '#server/topics/facts.ts'
import { lockTopic, purgeExpiredMemory, topicMemoryColumn, upsertTopicMemory } from '#server/topics/repository.ts'
import { checkTopicMemory, loadTopicMemory, type MemoryContext, saveTopicMemory } from '#server/topics/store.ts'
import { createTopicIndex } from '#server/topics/topic-index.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, dumpAllTables, type TestDatabase } from '#test/support/database.ts'
import { capturingLogger } from '#test/support/logger.ts'

let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(() => database.drop())

const DAY = 86_400_000
// One topic index for the file: the tests vary the key ring (rotation, a lost key), not how topics are found.
const topicIndex = createTopicIndex(randomBytes(32))

function context(options: { keys?: string; now?: () => Date } = {}) {
  const { log, lines } = capturingLogger()
  const ring = parseKeyRing(options.keys ?? generateKeySpec('k1'))
  const memory: MemoryContext = {
    db: database.db,
    column: topicMemoryColumn(ring),
    topicIndex,
    log,
    now: options.now ?? (() => new Date()),
  }
  return { memory, ring, lines }
}

function contribution(runId: string, at: Date, overrides: Partial<MemoryContribution> = {}): MemoryContribution {
  return {
    runId,
    at,
    facts: [
      contributedFact(`Finding of ${runId}: sodium-ion cells passed 4000 cycles`, [`https://news.example/${runId}`]),
    ],
    sources: [{ url: `https://news.example/${runId}`, title: `Report ${runId}`, publishedDate: '2026-11-01' }],
    urlsRead: [`https://news.example/${runId}`],
    ...overrides,
  }
}

async function account() {
  return (await createTestAccount(database.db)).account.id
}

test("memory read with a run's row is used for that topic's hash only; another hash is looked up", async () => {
  const { memory } = context()
  const accountId = await account()
  await saveTopicMemory(memory, accountId, 'Grid storage', contribution('run-1', new Date()))
  const own = topicIndex.hash(accountId, 'Grid storage')
  // Read with the run as nothing there (memory saved since, in this staging): believed, not looked up.
  expect(await loadTopicMemory(memory, accountId, 'Grid storage', { topicHash: own, row: null })).toBeUndefined()
  const other = { topicHash: topicIndex.hash(accountId, 'Another topic'), row: null }
  expect((await loadTopicMemory(memory, accountId, 'Grid storage', other))?.runCount).toBe(1)
})

test('a saved memory loads back, and the memory check reports its counts', async () => {
  const { memory } = context()
  const accountId = await account()
  const at = new Date('2026-11-20T10:00:00Z')
  await saveTopicMemory(memory, accountId, 'Solid-state batteries', contribution('run-1', at))
  const loaded = await loadTopicMemory(memory, accountId, '  solid-state   BATTERIES ')
  expect(loaded).toMatchObject({ topic: 'Solid-state batteries', runCount: 1, factsStored: 1, urlsIndexed: 1 })
  expect(loaded?.facts[0]?.text).toContain('4000 cycles')
  expect(await checkTopicMemory(memory, accountId, 'solid-state batteries')).toEqual({
    runCount: 1,
    urlsIndexed: 1,
    factsStored: 1,
    lastRunAt: '2026-11-20T10:00:00.000Z',
  })
  expect(await checkTopicMemory(memory, accountId, 'liquid batteries')).toBeNull()
})

test('no topic, fact text, URL or title appears in plaintext anywhere in the database', async () => {
  const { memory } = context()
  const accountId = await account()
  await saveTopicMemory(
    memory,
    accountId,
    'Perovskite solar',
    contribution('run-x', new Date(), {
      facts: [contributedFact('Tandem cells reached 34.85 percent efficiency', ['https://lab.example/tandem-record'])],
      sources: [{ url: 'https://lab.example/tandem-record', title: 'Tandem record paper', publishedDate: null }],
      urlsRead: ['https://lab.example/tandem-record', 'https://blog.example/perovskite-roundup'],
    }),
  )
  const everything = await dumpAllTables(database.db)
  // The scan covers the topics table: the topic is there as its keyed hash, and only so.
  expect(everything).toContain(topicIndex.hash(accountId, 'Perovskite solar').toString('hex'))
  for (const secret of [
    'perovskite solar',
    'Perovskite solar',
    '34.85 percent',
    'tandem-record',
    'lab.example',
    'Tandem record paper',
    'perovskite-roundup',
  ]) {
    expect(everything).not.toContain(secret)
  }
})

test('key rotation: memory sealed with k1 still reads after k2 becomes the sealing key', async () => {
  const k1 = generateKeySpec('k1')
  const accountId = await account()
  await saveTopicMemory(context({ keys: k1 }).memory, accountId, 'old topic', contribution('run-a', new Date()))
  const rotated = context({ keys: `${generateKeySpec('k2')},${k1}` }).memory
  await saveTopicMemory(rotated, accountId, 'new topic', contribution('run-b', new Date()))
  expect((await loadTopicMemory(rotated, accountId, 'old topic'))?.facts).toHaveLength(1)
  expect((await loadTopicMemory(rotated, accountId, 'new topic'))?.facts).toHaveLength(1)
  const keyIds = await database.db
    .selectFrom('topic_memory')
    .innerJoin('topics', 'topics.id', 'topic_memory.topic_id')
    .select(['topics.topic_hash', 'topic_memory.key_id'])
    .where('topics.account_id', '=', accountId)
    .orderBy('key_id', 'desc')
    .execute()
  expect(keyIds).toEqual([
    { topic_hash: topicIndex.hash(accountId, 'new topic'), key_id: 'k2' },
    { topic_hash: topicIndex.hash(accountId, 'old topic'), key_id: 'k1' },
  ])
  // A save re-seals the old topic with the new key.
  await saveTopicMemory(rotated, accountId, 'old topic', contribution('run-c', new Date()))
  expect((await loadTopicMemory(rotated, accountId, 'old topic'))?.runCount).toBe(2)
})

test('memory sealed with a key that is gone reads as none, is logged, and is never overwritten', async () => {
  const accountId = await account()
  await saveTopicMemory(context().memory, accountId, 'lost key topic', contribution('run-1', new Date()))
  const { memory, lines } = context() // a different k1
  expect(await loadTopicMemory(memory, accountId, 'lost key topic')).toBeUndefined()
  expect(await checkTopicMemory(memory, accountId, 'lost key topic')).toBeNull()
  expect(lines.some((line) => line.msg === 'topic memory is unreadable')).toBe(true)
  const before = await database.db.selectFrom('topic_memory').select('ciphertext').execute()
  await expect(
    saveTopicMemory(memory, accountId, 'lost key topic', contribution('run-2', new Date())),
  ).rejects.toThrowError(MemoryUnreadableError)
  const after = await database.db.selectFrom('topic_memory').select('ciphertext').execute()
  expect(after).toEqual(before)
})

/** Stores `content` as a topic's memory, sealed as the code before the codecs sealed it. */
async function storeRaw(ring: KeyRing, accountId: string, topic: string, content: unknown) {
  await database.db.transaction().execute(async (trx) => {
    const { id } = await lockTopic(trx, accountId, topicIndex.hash(accountId, topic))
    const sealed = sealJson(ring, content, `topic_memory:${id}`)
    const at = new Date()
    await upsertTopicMemory(trx, id, {
      key_id: sealed.keyId,
      ciphertext: sealed.ciphertext,
      run_count: 1,
      urls_indexed: 1,
      facts_stored: 1,
      last_run_at: at,
      expires_at: new Date(at.getTime() + 30 * DAY),
      updated_at: at,
    })
  })
}

test('memory stored by the first version opens in today’s shape; a blob that is not memory reads as none', async () => {
  const { memory, ring, lines } = context()
  const accountId = await account()
  const firstSeen = { runId: 'run-0', at: '2026-11-21T10:00:00.000Z' }
  // As the first version stored it: facts without quotes or readings; a source whose title went missing.
  await storeRaw(ring, accountId, 'first topic', {
    topic: 'first topic',
    facts: [{ id: 'f1', text: 'The plant will employ 1,200 people.', sourceUrls: ['https://a.example/'], firstSeen }],
    sources: [{ url: 'https://a.example/', publishedDate: null, firstSeen }],
    ledger: [{ url: 'https://a.example/', readAt: firstSeen.at }],
    runs: [{ runId: 'run-0', at: firstSeen.at, newFacts: 1, newSources: 1, urlsRead: 1 }],
  })
  const loaded = await loadTopicMemory(memory, accountId, 'first topic')
  expect(loaded?.facts[0]).toMatchObject({
    quote: '',
    lastConfirmed: firstSeen.at,
    statements: { figures: [{ value: 1200 }] },
  })
  expect(loaded?.sources[0]?.title).toBe('')
  // A later save merges into it.
  await saveTopicMemory(memory, accountId, 'first topic', contribution('run-1', new Date()))
  expect((await loadTopicMemory(memory, accountId, 'first topic'))?.facts).toHaveLength(2)

  // Sealed for its topic but not memory's shape: none, logged, and never overwritten.
  await storeRaw(ring, accountId, 'not memory', { topic: 'not memory', facts: 'none' })
  expect(await loadTopicMemory(memory, accountId, 'not memory')).toBeUndefined()
  expect(lines.some((line) => line.msg === 'topic memory is unreadable')).toBe(true)
  await expect(
    saveTopicMemory(memory, accountId, 'not memory', contribution('run-2', new Date())),
  ).rejects.toThrowError(MemoryUnreadableError)
})

test('the ledger keeps the newest 500 of 700 URLs read over several saves', async () => {
  const { memory } = context()
  const accountId = await account()
  const start = Date.parse('2026-11-01T00:00:00Z')
  for (let save = 0; save < 7; save++) {
    const urlsRead = Array.from({ length: 100 }, (_, i) => `https://site.example/page-${save * 100 + i}`)
    await saveTopicMemory(
      memory,
      accountId,
      'ledger topic',
      contribution(`run-${save}`, new Date(start + save * 3600_000), { urlsRead }),
    )
  }
  const loaded = await loadTopicMemory(memory, accountId, 'ledger topic')
  expect(loaded?.urlsIndexed).toBe(500)
  const urls = new Set(loaded?.ledger.map((entry) => entry.url))
  expect(urls.size).toBe(500)
  expect(urls.has('https://site.example/page-699')).toBe(true)
  expect(urls.has('https://site.example/page-200')).toBe(true)
  expect(urls.has('https://site.example/page-199')).toBe(false) // the oldest 200 made room
})

test('memory expires 30 days after it was last stored, and the purge deletes it', async () => {
  let now = new Date('2026-11-01T00:00:00Z')
  const { memory } = context({ now: () => now })
  const accountId = await account()
  await saveTopicMemory(memory, accountId, 'expiring topic', contribution('run-1', now))
  now = new Date(now.getTime() + 29 * DAY)
  expect(await checkTopicMemory(memory, accountId, 'expiring topic')).not.toBeNull()
  await saveTopicMemory(memory, accountId, 'expiring topic', contribution('run-2', now)) // refreshes expiry
  now = new Date(now.getTime() + 29 * DAY)
  expect(await checkTopicMemory(memory, accountId, 'expiring topic')).toMatchObject({ runCount: 2 })
  now = new Date(now.getTime() + 1 * DAY + 1000)
  expect(await checkTopicMemory(memory, accountId, 'expiring topic')).toBeNull()

  // Expired memory is a new baseline for the next run, not a continuation.
  const other = await account()
  const today = now
  now = new Date(today.getTime() - 31 * DAY)
  await saveTopicMemory(memory, other, 'purged topic', contribution('run-1', now))
  now = today
  expect(await purgeExpiredMemory(database.db, now)).toBeGreaterThanOrEqual(2)
  expect(
    await database.db
      .selectFrom('topic_memory')
      .innerJoin('topics', 'topics.id', 'topic_memory.topic_id')
      .select('topics.id')
      .where('topics.account_id', 'in', [accountId, other])
      .execute(),
  ).toEqual([])
  await saveTopicMemory(memory, accountId, 'expiring topic', contribution('run-3', now))
  expect(await checkTopicMemory(memory, accountId, 'expiring topic')).toMatchObject({ runCount: 1, factsStored: 1 })
})

test('two runs saving the same topic at once both keep their facts', async () => {
  const { memory } = context()
  const accountId = await account()
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      saveTopicMemory(memory, accountId, 'busy topic', contribution(`run-${i}`, new Date())),
    ),
  )
  const loaded = await loadTopicMemory(memory, accountId, 'busy topic')
  expect(loaded?.runCount).toBe(6)
  expect(loaded?.facts).toHaveLength(6)
  expect(new Set(loaded?.runs.map((run) => run.runId)).size).toBe(6)
})

test('saving the same run twice (a retried save) changes nothing', async () => {
  const { memory } = context()
  const accountId = await account()
  const at = new Date()
  await saveTopicMemory(memory, accountId, 'retried topic', contribution('run-1', at))
  const again = await saveTopicMemory(memory, accountId, 'retried topic', contribution('run-1', at))
  expect(again.added).toEqual({ facts: 0, sources: 0 })
  expect(again.stats).toMatchObject({ runCount: 1, factsStored: 1 })
})

test('topics in any script are their own topics; case and spacing variants are one', async () => {
  const { memory } = context()
  const accountId = await account()
  await saveTopicMemory(memory, accountId, '東京の電池', contribution('run-tokyo', new Date()))
  await saveTopicMemory(memory, accountId, '大阪の電池', contribution('run-osaka', new Date()))
  await saveTopicMemory(memory, accountId, '  AI Agents ', contribution('run-ai-1', new Date()))
  await saveTopicMemory(memory, accountId, 'ai agents', contribution('run-ai-2', new Date()))
  expect((await loadTopicMemory(memory, accountId, '東京の電池'))?.runs.map((run) => run.runId)).toEqual(['run-tokyo'])
  expect((await loadTopicMemory(memory, accountId, '大阪の電池'))?.runs.map((run) => run.runId)).toEqual(['run-osaka'])
  expect((await loadTopicMemory(memory, accountId, 'AI AGENTS'))?.runCount).toBe(2)
  expect((await loadTopicMemory(memory, accountId, 'ＡＩ　Ａｇｅｎｔｓ'))?.runCount).toBe(2) // full-width
})
