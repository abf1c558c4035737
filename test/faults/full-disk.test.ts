// A full disk under the embedded Postgres, for real: DATA_DIR on a small tmpfs, filled to the last
// byte. Postgres still commits a start's few small rows there, so runs used to be accepted (202) and
// then hang; now the start is refused with 503 + Retry-After and /readyz says why, until space
// returns. A new feed is refused the same way. Mounting needs root (CAP_SYS_ADMIN); where it is not allowed the test is skipped.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { expectRunIntegrity } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { waitUntil } from '#test/support/sse-client.ts'

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-fulldisk-'))
let mounted = false
let app: TestApp | undefined

beforeAll(async () => {
  mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=160m,mode=0755', 'tmpfs', mountPoint]).status === 0
  if (!mounted) return
  // DATABASE_URL empty counts as unset: the app starts its own embedded Postgres in DATA_DIR.
  app = await startTestApp({
    env: { DATABASE_URL: '', DATA_DIR: path.join(mountPoint, 'data'), EMBEDDED_PG_PORT: '0' },
  })
}, 90_000)
afterAll(async () => {
  await app?.stop()
  if (mounted) spawnSync('umount', ['-l', mountPoint])
  fs.rmSync(mountPoint, { recursive: true, force: true })
})

/** Writes zeros until the file system says ENOSPC; returns the file to delete. */
function fillDisk(): string {
  const filler = path.join(mountPoint, 'filler')
  const fd = fs.openSync(filler, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (;;) fs.writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    fs.closeSync(fd)
  }
  return filler
}

test('a full disk: starts are refused with 503 + Retry-After, /readyz 503, and runs work again once there is room', {
  timeout: 90_000,
}, async (context) => {
  if (!app) return context.skip('mounting a tmpfs is not allowed here')
  const user = await createTestAccount(app.db)
  const brief = { topic: 'sodium-ion batteries', depth: 'quick' } as const
  const baseline = await postBrief(app.fetch, user.auth, brief)
  expect(baseline.response.status).toBe(202)
  expect((await waitForRun(app.fetch, user.auth, baseline.body.runId)).status).toBe('complete')
  const runs = () => app?.db.selectFrom('runs').select('id').where('account_id', '=', user.account.id).execute()
  const before = await runs()

  const filler = fillDisk()
  try {
    const { response, body } = await postBrief(app.fetch, user.auth, brief)
    expect(response.status, JSON.stringify(body)).toBe(503)
    expect(response.headers.get('content-type')).toContain('application/problem+json')
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await runs()).toEqual(before)
    // A feed is refused the same way, and none is made.
    const feed = await app.fetch('/api/feeds', {
      method: 'POST',
      headers: { ...user.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: brief.topic }),
    })
    expect(feed.status, await feed.clone().text()).toBe(503)
    expect(Number(feed.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await app.db.selectFrom('feeds').select('id').where('account_id', '=', user.account.id).execute()).toEqual(
      [],
    )
    const ready = await app.fetch('/readyz')
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({
      checks: { jobs: { ok: false, error: expect.stringMatching(/MB free/) } },
    })
  } finally {
    fs.rmSync(filler)
  }

  await waitUntil(async () => (await app?.fetch('/readyz'))?.status === 200)
  const feed = await app.fetch('/api/feeds', {
    method: 'POST',
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ topic: brief.topic }),
  })
  expect(feed.status).toBe(201)
  const after = await postBrief(app.fetch, user.auth, brief)
  expect(after.response.status).toBe(202)
  expect((await waitForRun(app.fetch, user.auth, after.body.runId)).status).toBe('complete')
  await expectRunIntegrity(app.db, after.body.runId)
})
