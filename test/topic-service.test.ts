// The topic service over real stored memory: scoped to the account, readable results.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadInstallationKey } from '#server/crypto/installation-key.ts'
import { generateKeySpec, parseKeyRing } from '#server/crypto/key-ring.ts'
import { contributedFact } from '#server/topics/facts.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import { createTopicService, type TopicService } from '#server/topics/service.ts'
import { type MemoryContext, saveTopicMemory } from '#server/topics/store.ts'
import { loadTopicIndex } from '#server/topics/topic-index.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
let memory: MemoryContext
let topics: TopicService
beforeAll(async () => {
  database = await createTestDatabase()
  const ring = parseKeyRing(generateKeySpec())
  const topicIndex = await loadTopicIndex((setting, description) =>
    loadInstallationKey(database.db, ring, setting, description),
  )
  memory = { db: database.db, column: topicMemoryColumn(ring), topicIndex, log: testLogger(), now: () => new Date() }
  topics = createTopicService({ memory, publicUrl: 'http://localhost:3000' })
})
afterAll(() => database.drop())

async function seed() {
  const alice = (await createTestAccount(database.db)).account.id
  const bob = (await createTestAccount(database.db)).account.id
  const shared = 'https://energy.example/report-2026'
  await saveTopicMemory(memory, alice, 'Sodium batteries', {
    runId: 'run-1',
    at: new Date('2026-11-01T00:00:00Z'),
    facts: [contributedFact('Sodium-ion cells cost 20 percent less than LFP', [shared])],
    sources: [{ url: shared, title: 'Energy report 2026', publishedDate: '2026-10-30' }],
    urlsRead: [shared],
  })
  await saveTopicMemory(memory, alice, 'Sodium batteries', {
    runId: 'run-2',
    at: new Date('2026-11-08T00:00:00Z'),
    facts: [contributedFact('CATL started mass production of sodium-ion packs', ['https://news.example/catl'])],
    sources: [{ url: 'https://news.example/catl', title: 'CATL ramps sodium', publishedDate: null }],
    urlsRead: ['https://news.example/catl'],
  })
  await saveTopicMemory(memory, alice, 'Lithium iron phosphate', {
    runId: 'run-3',
    at: new Date('2026-11-09T00:00:00Z'),
    facts: [contributedFact('LFP dominates stationary storage', [shared])],
    sources: [{ url: shared, title: 'Energy report 2026', publishedDate: '2026-10-30' }],
    urlsRead: [shared],
  })
  await saveTopicMemory(memory, bob, 'Sodium batteries', {
    runId: 'run-bob',
    at: new Date('2026-11-09T00:00:00Z'),
    facts: [contributedFact('Bob private note on sodium', ['https://bob.example/x'])],
    sources: [],
    urlsRead: ['https://bob.example/x'],
  })
  return { alice, bob }
}

test('delta, search, compare and export work on the account own memory only', async () => {
  const { alice } = await seed()

  const found = await topics.delta(alice, { topic: 'sodium batteries' }, 'client')
  expect(found?.value).toMatchObject({ topic: 'Sodium batteries', delta: { runId: 'run-2' } })
  expect(found?.value.delta.facts.map((fact) => fact.text)).toEqual([
    'CATL started mass production of sodium-ion packs',
  ])
  expect(found?.value.delta.newFacts.map((fact) => fact.text)).toEqual([
    'CATL started mass production of sodium-ion packs',
  ])
  expect(await topics.delta(alice, { topic: 'unknown topic' }, 'client')).toBeUndefined()

  const hits = await topics.search(alice, 'sodium', {}, 'client')
  expect(hits.length).toBeGreaterThan(0)
  expect(hits.every((hit) => hit.topic !== undefined && !hit.fact.text.includes('Bob'))).toBe(true)

  const compared = await topics.compare(
    alice,
    { topic: 'Sodium batteries' },
    { topic: 'Lithium iron phosphate' },
    'client',
  )
  expect(compared).toMatchObject({ comparison: { summary: { sharedSources: 1 } } })
  expect(await topics.compare(alice, { topic: 'Sodium batteries' }, { topic: 'Hydrogen' }, 'client')).toEqual({
    missing: [{ topic: 'Hydrogen' }],
  })

  const markdown = (await topics.export(alice, { topic: 'Sodium batteries' }))?.markdown
  expect(markdown).toMatch(/^# Sodium batteries/)
  expect(markdown).toContain('CATL started mass production')
  expect(markdown).not.toContain('Bob private note')
  expect(await topics.export(alice, { topic: 'Hydrogen' })).toBeUndefined()
})
