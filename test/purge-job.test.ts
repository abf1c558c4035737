import { afterAll, beforeAll, expect, test } from 'vitest'
import { contributedFact } from '#server/topics/facts.ts'
import { checkTopicMemory, saveTopicMemory } from '#server/topics/store.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

test('the daily purge job is scheduled, and when it runs it deletes expired memory only', async () => {
  const schedules = await app.jobs.boss.getSchedules('memory.purge')
  expect(schedules).toEqual([expect.objectContaining({ name: 'memory.purge', cron: '17 3 * * *' })])

  const { account } = await createTestAccount(app.db)
  const longAgo = new Date(Date.now() - 40 * 86_400_000)
  const contribution = (runId: string, at: Date) => ({
    runId,
    at,
    facts: [contributedFact(`fact ${runId}`, [])],
    sources: [],
    urlsRead: [`https://x.example/${runId}`],
  })
  await saveTopicMemory({ ...app.memory, now: () => longAgo }, account.id, 'stale topic', contribution('old', longAgo))
  await saveTopicMemory(app.memory, account.id, 'fresh topic', contribution('new', new Date()))
  const countRows = () =>
    app.db
      .selectFrom('topic_memory')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  const before = (await countRows()).n

  await app.jobs.boss.send('memory.purge', {})
  const deadline = performance.now() + 15_000
  while ((await countRows()).n === before && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100))
  expect((await countRows()).n).toBe(before - 1)
  expect(await checkTopicMemory(app.memory, account.id, 'fresh topic')).not.toBeNull()
})
