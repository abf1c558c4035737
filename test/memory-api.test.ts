import { afterAll, beforeAll, expect, test } from 'vitest'
import { contributedFact } from '#server/topics/facts.ts'
import { saveTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

function check(topic: string | undefined, auth: Record<string, string>) {
  const query = topic === undefined ? '' : `?${new URLSearchParams({ topic })}`
  return app.fetch(`/api/memory/check${query}`, { headers: auth })
}

test('the memory check: counts for a known topic, null for none, null for another account', async () => {
  const alice = await createTestAccount(app.db)
  const bob = await createTestAccount(app.db)
  await saveTopicMemory(app.memory, alice.account.id, 'Grid storage', {
    runId: 'run-1',
    at: new Date('2026-11-20T08:00:00Z'),
    facts: [contributedFact('Iron-air batteries store 100 hours', ['https://a.example/iron-air'])],
    sources: [{ url: 'https://a.example/iron-air', title: 'Iron-air', publishedDate: null }],
    urlsRead: ['https://a.example/iron-air', 'https://b.example/other'],
  })

  const known = await check('grid storage', alice.auth)
  expect(known.status).toBe(200)
  expect(await known.json()).toEqual({
    runCount: 1,
    urlsIndexed: 2,
    factsStored: 1,
    lastRunAt: '2026-11-20T08:00:00.000Z',
  })

  const none = await check('ocean storage', alice.auth)
  expect(none.status).toBe(200)
  expect(await none.text()).toBe('null')

  const someoneElses = await check('Grid storage', bob.auth)
  expect(await someoneElses.text()).toBe('null')
})

test('a missing, blank or over-500-character topic is 400; 500 characters in any script are fine', async () => {
  const user = await createTestAccount(app.db)
  for (const topic of [undefined, '   ', 'x'.repeat(501)]) {
    const response = await check(topic, user.auth)
    expect(response.status).toBe(400)
    expect((await response.json()).errors[0].path).toBe('topic')
  }
  expect((await check('電'.repeat(500), user.auth)).status).toBe(200)
  expect((await check('😀'.repeat(500), user.auth)).status).toBe(200) // 1000 UTF-16 units, 500 characters
  const repeated = await app.fetch('/api/memory/check?topic=a&topic=b', { headers: user.auth })
  expect(repeated.status).toBe(400)
})

test('the memory check needs a key', async () => {
  expect((await check('anything', {})).status).toBe(401)
})
