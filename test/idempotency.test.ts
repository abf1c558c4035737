// The idempotency middleware, in front of a handler that counts how often it really ran.
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApiKeyVerifier } from '#server/accounts/api-keys.ts'
import { createAccountService, createKeyService } from '#server/accounts/service.ts'
import { loadConfig } from '#server/config.ts'
import { requireApiPrincipal } from '#server/http/api-auth.ts'
import { idempotent } from '#server/http/idempotency.ts'
import { jsonBody } from '#server/http/json-body.ts'
import { problemErrorHandler } from '#server/http/problem.ts'
import { createIdempotencyService } from '#server/services/idempotency.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { createTestDatabase, type TestDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'

let database: TestDatabase
let baseUrl: string
let server: ReturnType<express.Express['listen']>
let runs = 0
let gate: Promise<void> = Promise.resolve()
/** Called when a request reaches the handler (past the idempotency middleware's claim of its key). */
let reached: () => void = () => {}

beforeAll(async () => {
  database = await createTestDatabase()
  const services = {
    config: loadConfig({ NODE_ENV: 'test' }),
    accounts: createAccountService({ db: database.db }),
    keys: createKeyService({ db: database.db, verifier: createApiKeyVerifier(database.db), maxActive: 10 }),
    localAccountId: undefined,
  }
  const app = express()
  app.post(
    '/work',
    jsonBody(),
    requireApiPrincipal(services),
    idempotent(createIdempotencyService({ db: database.db }), testLogger()),
    async (req: express.Request, res: express.Response) => {
      reached()
      await gate
      runs += 1
      if (req.body.fail) return void res.status(503).json({ error: 'try later' })
      res.status(202).json({ run: runs, topic: req.body.topic })
    },
  )
  app.use(problemErrorHandler(testLogger()))
  server = app.listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.close()
  await database.drop()
})

function post(auth: Record<string, string>, key: string | undefined, body: unknown) {
  return fetch(`${baseUrl}/work`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
    body: JSON.stringify(body),
  })
}

test('the same key and body replay the first response without running again', async () => {
  const user = await createTestAccount(database.db)
  const first = await post(user.auth, 'key-1', { topic: 'solar' })
  expect(first.status).toBe(202)
  const firstBody = await first.json()
  const before = runs

  const replay = await post(user.auth, 'key-1', { topic: 'solar' })
  expect(replay.status).toBe(202)
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect(await replay.json()).toEqual(firstBody)
  expect(runs).toBe(before)
})

test('the same key with another body is 422', async () => {
  const user = await createTestAccount(database.db)
  expect((await post(user.auth, 'key-2', { topic: 'wind' })).status).toBe(202)
  const reused = await post(user.auth, 'key-2', { topic: 'tidal' })
  expect(reused.status).toBe(422)
  expect((await reused.json()).detail).toMatch(/different request/)
})

test('keys belong to one account: another account may use the same key', async () => {
  const alice = await createTestAccount(database.db)
  const bob = await createTestAccount(database.db)
  const a = await (await post(alice.auth, 'shared', { topic: 'x' })).json()
  const b = await post(bob.auth, 'shared', { topic: 'x' })
  expect(b.headers.get('idempotent-replayed')).toBeNull()
  expect((await b.json()).run).not.toBe(a.run)
})

test('a retry while the first request is still running is 409; a server error releases the key', async () => {
  const user = await createTestAccount(database.db)
  let open!: () => void
  gate = new Promise((resolve) => {
    open = resolve
  })
  // Not a sleep: on a busy machine the first request may take any time to claim its key.
  const inHandler = new Promise<void>((resolve) => {
    reached = resolve
  })
  const slow = post(user.auth, 'key-3', { topic: 'slow' })
  await inHandler
  reached = () => {}
  const concurrent = await post(user.auth, 'key-3', { topic: 'slow' })
  expect(concurrent.status).toBe(409)
  open()
  expect((await slow).status).toBe(202)

  const failed = await post(user.auth, 'key-4', { topic: 'x', fail: true })
  expect(failed.status).toBe(503)
  const retried = await post(user.auth, 'key-4', { topic: 'x', fail: true })
  expect(retried.headers.get('idempotent-replayed')).toBeNull()
})

test('a malformed key is 400', async () => {
  const user = await createTestAccount(database.db)
  const response = await post(user.auth, 'has spaces', { topic: 'x' })
  expect(response.status).toBe(400)
})

test('twenty simultaneous requests with one key run the work once; the rest are refused or replayed', async () => {
  const user = await createTestAccount(database.db)
  const before = runs
  const answers = await Promise.all(Array.from({ length: 20 }, () => post(user.auth, 'key-burst', { topic: 'burst' })))
  expect(runs - before).toBe(1)
  const statuses = answers.map((answer) => answer.status)
  expect(statuses.filter((status) => status === 202 || status === 409)).toHaveLength(20)
  const replayed = answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')
  expect(statuses.filter((status) => status === 202)).toHaveLength(1 + replayed.length)
})
