// A memory save that fails (spec 7.2): the run still completes, with a warning, and the memory that
// was there is exactly as it was; once saving works again the next run adds to it, nothing doubled.
// Two ways to fail: the database refusing the write, and memory sealed with a key the app lacks.
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec, parseKeyRing } from '#server/crypto/key-ring.ts'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { contributedFact } from '#server/topics/facts.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import { saveTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectRunIntegrity, loadIntactMemory, memoryFingerprint } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, type StubExa, type StubExaDocument, startStubExa } from '#test/support/stub-exa.ts'

// Distinct findings, so the extractive synthesizer never takes one page for another's repeat.
const FINDINGS = [
  'a utility in Texas awarded a 100 MWh sodium-ion tender after a price review',
  'regulators in Spain approved iron-air cells for a seasonal storage pilot',
  'a Japanese maker doubled flow battery output at its Osaka plant this quarter',
  'Chilean miners signed lithium supply contracts tied to new storage projects',
]
const documents: StubExaDocument[] = []
function publishPage(n: number) {
  // First: the stub ranks equal matches in list order and returns only the top few.
  documents.unshift({
    url: `https://grid.example/storage/${n}`,
    title: `Grid storage news ${n}`,
    publishedDate: new Date(Date.now() - n * 60_000).toISOString(),
    text: `Grid storage batteries: ${FINDINGS[n - 1]}.`,
  })
}

let exa: StubExa
let app: TestApp
beforeAll(async () => {
  exa = await startStubExa({ documents })
  app = await startTestApp({
    env: { EXA_API_KEY: STUB_EXA_API_KEY, EXA_BASE_URL: exa.url, RATE_LIMIT_RUNS_PER_HOUR: '1000' },
  })
})
afterAll(async () => {
  await app.stop()
  await exa.close()
})

async function warnings(runId: string) {
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), runId, 0)
  return events.filter((event) => event.type === 'warning').map((event) => event.data)
}

test('the database refusing the memory write: the run completes with a warning, memory untouched, and the next run saves', async () => {
  const user = await createTestAccount(app.db)
  const topic = 'Grid storage batteries'
  publishPage(1)
  const baseline = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
  expect((await waitForRun(app.fetch, user.auth, baseline.body.runId)).status).toBe('complete')
  const saved = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, topic))
  expect(saved?.facts.length).toBeGreaterThan(0)

  // A disk that fills, a lost connection, a constraint: from the app's side, the write throws.
  await sql`create function refuse_memory_write() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device'; end $$`.execute(app.db)
  await sql`create trigger refuse_memory_write before insert or update on topic_memory
    for each row execute function refuse_memory_write()`.execute(app.db)
  publishPage(2)
  let failedSave: string
  try {
    const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
    failedSave = body.runId
    const done = await waitForRun(app.fetch, user.auth, failedSave)
    expect(done.status).toBe('complete')
    expect(done.report?.sources.map((source) => source.url)).toEqual(['https://grid.example/storage/2'])
    expect(await warnings(failedSave)).toContainEqual({
      code: 'memory_save_failed',
      message: expect.stringMatching(/could not be saved/),
    })
  } finally {
    await sql`drop trigger refuse_memory_write on topic_memory`.execute(app.db)
    await sql`drop function refuse_memory_write()`.execute(app.db)
  }
  await expectRunIntegrity(app.db, failedSave)
  expect(memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, topic))).toEqual(saved)

  // Saving works again: the page the failed save never recorded is read again, and everything lands once.
  publishPage(3)
  const next = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
  expect(next.body).toMatchObject({ hasMemory: true })
  const done = await waitForRun(app.fetch, user.auth, next.body.runId)
  expect(done.status).toBe('complete')
  expect(done.report?.sources.map((source) => source.url).sort()).toEqual([
    'https://grid.example/storage/2',
    'https://grid.example/storage/3',
  ])
  await expectRunIntegrity(app.db, next.body.runId)
  const after = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, topic))
  for (const fact of saved?.facts ?? []) expect(after?.facts).toContain(fact)
  expect(after?.runs).toEqual([baseline.body.runId, next.body.runId].sort())
  expect(after?.ledger).toEqual(
    ['https://grid.example/storage/1', 'https://grid.example/storage/2', 'https://grid.example/storage/3'].sort(),
  )
})

test('memory sealed with a key the app does not hold: the run completes, and the sealed memory is left byte for byte', async () => {
  const user = await createTestAccount(app.db)
  const topic = 'Grid storage batteries'
  const foreign = { ...app.memory, column: topicMemoryColumn(parseKeyRing(generateKeySpec('elsewhere'))) }
  await saveTopicMemory(foreign, user.account.id, topic, {
    runId: 'sealed-elsewhere',
    at: new Date(),
    facts: [contributedFact('Only the other key can read this.', [])],
    sources: [],
    urlsRead: ['https://grid.example/storage/1'],
  })
  const sealed = () =>
    app.db
      .selectFrom('topic_memory')
      .innerJoin('topics', 'topics.id', 'topic_memory.topic_id')
      .select(['ciphertext', 'key_id', 'run_count', 'expires_at'])
      .where('topics.account_id', '=', user.account.id)
      .executeTakeFirstOrThrow()
  const before = await sealed()

  publishPage(4)
  const { body } = await postBrief(app.fetch, user.auth, { topic, depth: 'quick' })
  const done = await waitForRun(app.fetch, user.auth, body.runId)
  expect(done.status).toBe('complete')
  expect(await warnings(body.runId)).toContainEqual({
    code: 'memory_save_failed',
    message: expect.stringMatching(/could not be decrypted/),
  })
  await expectRunIntegrity(app.db, body.runId)
  expect(await sealed()).toEqual(before)
})
