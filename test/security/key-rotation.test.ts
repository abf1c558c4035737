// Rotating MEMORY_ENCRYPTION_KEYS as docs/explanation/memory.md says (a new key first, the old ones after it) keeps
// every topic findable and every sealed brief, event and report readable; the topic index key moves
// to the new key at the next boot, so topics stay findable once the old key is retired; and a ring
// that cannot open the topic index key stops the boot with a message saying what to do.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec } from '#server/crypto/key-ring.ts'
import { readSetting } from '#server/repositories/settings.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { createDatabase, type DatabaseHandle } from '#test/support/database.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

const TOPIC = 'Sodium-ion batteries'
const K2 = generateKeySpec('k2')

let database: DatabaseHandle
beforeAll(async () => {
  database = await createDatabase('sextant_template')
})
afterAll(() => database.drop())

/** The app on the shared database, with this key ring. */
function boot(keys: string) {
  return startTestApp({ databaseUrl: database.url, env: { MEMORY_ENCRYPTION_KEYS: keys } })
}

test('topics stay findable and sealed rows readable across a key rotation', { timeout: 120_000 }, async () => {
  // Before: the test key alone seals everything.
  const before = await boot(TEST_MEMORY_KEYS)
  const user = await createTestAccount(before.db)
  const auth = user.auth
  const first = await postBrief(before.fetch, auth, { topic: TOPIC, depth: 'quick', objective: 'grid storage' })
  expect((await waitForRun(before.fetch, auth, first.body.runId)).status).toBe('complete')
  await before.stop()

  // Rotated: k2 first, the old key after it.
  const rotated = await boot(`${K2},${TEST_MEMORY_KEYS}`)
  expect(await readSetting(rotated.db, 'topic_index_key')).toMatchObject({ keyId: 'k2' })
  const listed = await (
    await rotated.fetch(`/api/briefs?topic=${encodeURIComponent('  SODIUM-ION   batteries')}`, { headers: auth })
  ).json()
  expect(listed.runs.map((run: { runId: string }) => run.runId)).toEqual([first.body.runId])
  const view = await (await rotated.fetch(`/api/briefs/${first.body.runId}`, { headers: auth })).json()
  expect(view).toMatchObject({ topic: TOPIC, brief: { objective: 'grid storage' }, status: 'complete' })
  expect(view.report).toBeDefined()
  const events = await (await rotated.fetch(`/api/briefs/${first.body.runId}/events`, { headers: auth })).text()
  expect(events).toContain('event: query_done')
  expect(events).toMatch(/"query":"[^"]+"/)
  // A new run on the topic finds the memory and the earlier run, and saves under k2.
  const second = await postBrief(rotated.fetch, auth, { topic: 'sodium-ion batteries', depth: 'quick' })
  expect(second.body).toMatchObject({ hasMemory: true, runCount: 1 })
  expect((await waitForRun(rotated.fetch, auth, second.body.runId)).status).toBe('complete')
  const keys = await rotated.db
    .selectFrom('runs')
    .select(['id', 'brief_key_id'])
    .where('account_id', '=', user.account.id)
    .execute()
  expect(Object.fromEntries(keys.map((row) => [row.id, row.brief_key_id]))).toEqual({
    [first.body.runId]: 'test1',
    [second.body.runId]: 'k2',
  })
  await rotated.stop()

  // Retired: the old key is gone. What was sealed again since is read, and the topic is still found.
  const retired = await boot(K2)
  const check = await (
    await retired.fetch(`/api/memory/check?topic=${encodeURIComponent(TOPIC)}`, { headers: auth })
  ).json()
  expect(check).toMatchObject({ runCount: 2 })
  const latest = await (await retired.fetch(`/api/briefs/${second.body.runId}`, { headers: auth })).json()
  expect(latest).toMatchObject({ topic: 'sodium-ion batteries', status: 'complete' })
  await retired.stop()

  // A ring that cannot open the topic index key: the boot stops and says which key to put back.
  await expect(boot(generateKeySpec('k3'))).rejects.toThrow(/topic index key is sealed with key "k2"/)
})
