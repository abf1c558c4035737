// A complete run's view is kept in memory (issue 21): a second read opens nothing sealed, yet every
// read still checks that the run is the reader's and still exists.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { generateKeySpec, openJson, parseKeyRing, sealJson } from '#server/crypto/key-ring.ts'
import type { Report } from '#server/research/report-types.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { TEST_MEMORY_KEYS } from '#test/support/app.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'

let stubs: ProviderApp
beforeAll(async () => {
  // Two keys, so a test can re-seal a report under the other one, as a rotation does.
  stubs = await startProviderApp({
    env: { MEMORY_ENCRYPTION_KEYS: `${generateKeySpec('k2')},${TEST_MEMORY_KEYS}` },
    documents: [
      {
        url: 'https://grid.example/sodium-utility',
        title: 'Utility switches on sodium-ion storage',
        publishedDate: new Date().toISOString(),
        text: 'A utility switched on a 100 MWh sodium-ion battery for grid storage, citing costs 20 percent below LFP.',
      },
    ],
  })
})
afterAll(() => stubs.stop())

async function completedRun() {
  const { app } = stubs
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'sodium-ion storage', depth: 'quick' })
  const run = await waitForRun(app.fetch, user.auth, body.runId)
  expect(run.status).toBe('complete')
  return { user, runId: body.runId as string, first: run }
}

test('a complete run read again is its kept view: the same body, its sealed report not opened again', async () => {
  const { app } = stubs
  const { user, runId, first } = await completedRun()
  const read = async () => (await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).json()
  expect(await read()).toEqual(first)
  // Were the report opened again, this would fail to decrypt; the kept view answers instead.
  await app.db
    .updateTable('runs')
    .set({ report: Buffer.from('not a sealed report') })
    .where('id', '=', runId)
    .execute()
  expect(await read()).toEqual(first)
})

test('a kept view is still only its account’s, and goes with its run', async () => {
  const { app } = stubs
  const { runId } = await completedRun()
  const stranger = await createTestAccount(app.db)
  const asStranger = await app.fetch(`/api/briefs/${runId}`, { headers: stranger.auth })
  expect(asStranger.status).toBe(404)
  await app.db.deleteFrom('run_events').where('run_id', '=', runId).execute()
  await app.db.deleteFrom('runs').where('id', '=', runId).execute()
  const { user } = await completedRun()
  expect((await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).status).toBe(404)
})

test('a view kept under other keys is not used: a re-sealed run is opened anew', async () => {
  const { app } = stubs
  const { user, runId, first } = await completedRun()
  // As a key rotation leaves it: the report re-sealed under another key of the ring (here with a
  // changed summary, to tell the two apart).
  const row = await app.db
    .selectFrom('runs')
    .select(['report', 'report_key_id'])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow()
  const stored = openJson(
    app.ring,
    { keyId: row.report_key_id as string, ciphertext: row.report as Buffer },
    `run_report:${runId}`,
  ) as Report
  const resealed = sealJson(parseKeyRing(TEST_MEMORY_KEYS), { ...stored, summary: 'Re-sealed.' }, `run_report:${runId}`)
  expect(resealed.keyId).not.toBe(row.report_key_id)
  await app.db
    .updateTable('runs')
    .set({ report: resealed.ciphertext, report_key_id: resealed.keyId })
    .where('id', '=', runId)
    .execute()
  const read = await (await app.fetch(`/api/briefs/${runId}`, { headers: user.auth })).json()
  expect(read.report.summary).toBe('Re-sealed.')
  expect(read.report.summary).not.toBe(first.report?.summary)
})
