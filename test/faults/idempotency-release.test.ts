// A client that goes away while its Idempotency-Key request is still running frees the key; when the
// database refuses that release, the server says so in its log and goes on. An unhandled rejection
// there would stop the whole process (server/main.ts exits on one), for every user.
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { capturingLogger } from '#test/support/logger.ts'
import { waitUntil } from '#test/support/sse-client.ts'

const logger = capturingLogger()
let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ log: logger.log })
  await sql`create function refuse_delete() returns trigger language plpgsql as $$
    begin raise exception using errcode = 'disk_full', message = 'could not write: No space left on device'; end $$`.execute(
    app.db,
  )
})
afterAll(() => app.stop())

test('the database refusing to release the key of an abandoned request is logged, and the server goes on', async () => {
  const user = await createTestAccount(app.db)
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  process.on('unhandledRejection', onRejection)
  // Holds the run's insert, so the request is claimed but not answered when its client leaves.
  const locker = new pg.Client({ connectionString: app.databaseUrl })
  await locker.connect()
  await locker.query('begin; lock table runs in share mode')
  await sql`create trigger refuse_release before delete on idempotency_keys
    for each row execute function refuse_delete()`.execute(app.db)
  try {
    const client = new AbortController()
    const request = app
      .fetch('/api/briefs', {
        method: 'POST',
        headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'left-behind' },
        body: JSON.stringify({ topic: 'Sodium-ion batteries', depth: 'quick' }),
        signal: client.signal,
      })
      .catch((error: unknown) => error)
    const claimed = app.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('account_id', '=', user.account.id)
      .where('key', '=', 'left-behind')
    await waitUntil(async () => (await claimed.execute()).length === 1)
    client.abort()
    expect(await request).toMatchObject({ name: 'AbortError' })

    const released = () => logger.lines.some((line) => /could not release/.test(String(line.msg)))
    await waitUntil(() => released() || rejections.length > 0)
    expect(rejections).toEqual([])
    expect(released()).toBe(true)
  } finally {
    await locker.query('rollback')
    await locker.end()
    await sql`drop trigger refuse_release on idempotency_keys`.execute(app.db)
    process.off('unhandledRejection', onRejection)
  }
  // The server goes on: /healthz is healthy again. On a loaded machine one database ping may outlast its
  // 2 s timeout and answer 503 (the liveness check's own verdict), so the next pings are waited for.
  await waitUntil(async () => (await app.fetch('/healthz')).status === 200)
})
