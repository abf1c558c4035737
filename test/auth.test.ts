import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApiKeyVerifier } from '#server/accounts/api-keys.ts'
import { hashSecret, verifySecret } from '#server/crypto/secrets.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { dumpAllTables } from '#test/support/database.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

async function expect401(response: Response, detail: RegExp, tokenSent: boolean) {
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toBe(
    tokenSent ? 'Bearer realm="sextant", error="invalid_token"' : 'Bearer realm="sextant"',
  )
  expect(response.headers.get('content-type')).toContain('application/problem+json')
  expect((await response.json()).detail).toMatch(detail)
}

test('a valid key identifies its account', async () => {
  const user = await createTestAccount(app.db)
  const response = await app.fetch('/api/me', { headers: user.auth })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({
    account: { id: user.account.id, email: user.email, kind: 'standard' },
    auth: { via: 'api_key', keyPrefix: user.prefix, demo: false },
  })
})

test('missing, malformed, unknown and wrong-secret keys are 401 with a Bearer challenge', async () => {
  const user = await createTestAccount(app.db)
  await expect401(await app.fetch('/api/me'), /needs an API key/, false)
  await expect401(
    await app.fetch('/api/me', { headers: { Authorization: `Basic ${btoa('a:b')}` } }),
    /must be "Bearer/,
    true,
  )
  await expect401(await app.fetch('/api/me', { headers: { Authorization: 'Bearer' } }), /must be "Bearer/, true)
  await expect401(await app.fetch('/api/me', { headers: { Authorization: 'Bearer not-a-key' } }), /not valid/, true)
  const unknown = 'sx_zzzzzzzz_0123456789abcdefABCDEF0123456789'
  await expect401(await app.fetch('/api/me', { headers: { Authorization: `Bearer ${unknown}` } }), /not valid/, true)
  const wrongSecret = `sx_${user.prefix}_${'A'.repeat(32)}`
  await expect401(
    await app.fetch('/api/me', { headers: { Authorization: `Bearer ${wrongSecret}` } }),
    /not valid/,
    true,
  )
})

test('a key revoked through the API stops working at once', async () => {
  const user = await createTestAccount(app.db)
  expect((await app.fetch('/api/me', { headers: user.auth })).status).toBe(200)
  const revoke = await app.fetch(`/api/keys/${user.prefix}`, { method: 'DELETE', headers: user.auth })
  expect(revoke.status).toBe(200)
  expect(await revoke.json()).toMatchObject({ prefix: user.prefix, revokedAt: expect.any(String) })
  await expect401(await app.fetch('/api/me', { headers: user.auth }), /not valid/, true)
})

test('a key revoked elsewhere stops working once the verification cache expires', async () => {
  const user = await createTestAccount(app.db)
  const verifier = createApiKeyVerifier(app.db, { ttlMs: 200 })
  expect(await verifier.verify(user.key)).toMatchObject({ accountId: user.account.id })
  await app.db.updateTable('api_keys').set({ revoked_at: new Date() }).where('prefix', '=', user.prefix).execute()
  expect(await verifier.verify(user.key)).toMatchObject({ accountId: user.account.id }) // cached
  await new Promise((resolve) => setTimeout(resolve, 250))
  expect(await verifier.verify(user.key)).toBeUndefined()
})

test("an expired verification is renewed from the key's row, without argon2 unless its stored hash changed", async () => {
  const user = await createTestAccount(app.db)
  const checks: string[] = []
  const verifier = createApiKeyVerifier(app.db, {
    ttlMs: 100,
    verifySecret: async (hash, secret) => {
      checks.push(hash)
      return verifySecret(hash, secret)
    },
  })
  const wait = () => new Promise((resolve) => setTimeout(resolve, 150))
  expect(await verifier.verify(user.key)).toMatchObject({ accountId: user.account.id })
  expect(checks).toHaveLength(1)
  await wait()
  // Expired: the row is read again (a revocation would show), the same hash is not checked again.
  expect(await verifier.verify(user.key)).toMatchObject({ accountId: user.account.id })
  expect(checks).toHaveLength(1)
  // A stored hash this key was never checked against is checked (and this one does not match).
  await app.db
    .updateTable('api_keys')
    .set({ secret_hash: await hashSecret('another secret') })
    .where('prefix', '=', user.prefix)
    .execute()
  await wait()
  expect(await verifier.verify(user.key)).toBeUndefined()
  expect(checks).toHaveLength(2)
})

test("another account's key is not found, and stays usable", async () => {
  const alice = await createTestAccount(app.db)
  const bob = await createTestAccount(app.db)
  const attempt = await app.fetch(`/api/keys/${bob.prefix}`, { method: 'DELETE', headers: alice.auth })
  expect(attempt.status).toBe(404)
  expect((await app.fetch('/api/me', { headers: bob.auth })).status).toBe(200)
  const list = await (await app.fetch('/api/keys', { headers: alice.auth })).json()
  expect(list.keys.map((key: { prefix: string }) => key.prefix)).toEqual([alice.prefix])
})

test('a created key is shown once, works, and is listed without its secret', async () => {
  const user = await createTestAccount(app.db)
  const created = await app.fetch('/api/keys', {
    method: 'POST',
    headers: { ...user.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'ci' }),
  })
  expect(created.status).toBe(201)
  const { key, prefix } = await created.json()
  expect(key).toMatch(new RegExp(`^sx_${prefix}_[A-Za-z0-9]{32}$`))
  expect((await app.fetch('/api/me', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)
  const listed = JSON.stringify(await (await app.fetch('/api/keys', { headers: user.auth })).json())
  expect(listed).toContain(prefix)
  expect(listed).not.toContain(key)
})

test('no password, key secret or session token is stored in the clear', async () => {
  const user = await createTestAccount(app.db, { password: 'correct horse battery staple' })
  const secret = user.key.split('_')[2] as string
  const everything = await dumpAllTables(app.db)
  expect(everything).toContain(user.prefix) // the dump really covers api_keys
  expect(everything).not.toContain('correct horse battery staple')
  expect(everything).not.toContain(secret)
})

test('bad bodies: 413 over 64 KiB, 415 for a form, 400 for broken JSON and for invalid fields', async () => {
  const user = await createTestAccount(app.db)
  const post = (body: string, type = 'application/json') =>
    app.fetch('/api/keys', { method: 'POST', headers: { ...user.auth, 'Content-Type': type }, body })

  const huge = await post(JSON.stringify({ name: 'x'.repeat(70 * 1024) }))
  expect(huge.status).toBe(413)
  expect(await huge.json()).toMatchObject({
    title: 'Payload Too Large',
    detail: expect.stringContaining('65536 bytes'),
  })

  const form = await post('name=ci', 'application/x-www-form-urlencoded')
  expect(form.status).toBe(415)

  const broken = await post('{"name": ')
  expect(broken.status).toBe(400)
  expect((await broken.json()).detail).toBe('The request body is not valid JSON.')

  const invalid = await post(JSON.stringify({ name: 42 }))
  expect(invalid.status).toBe(400)
  expect(await invalid.json()).toMatchObject({
    type: 'https://sextant.dev/problems/validation',
    errors: [{ path: 'name', message: expect.any(String) }],
  })
})

test('a wrong method on a known path is 405 with Allow', async () => {
  const user = await createTestAccount(app.db)
  const response = await app.fetch('/api/keys', { method: 'PUT', headers: user.auth })
  expect(response.status).toBe(405)
  expect(response.headers.get('allow')).toBe('GET, POST')
})

test('the demo key cannot manage keys', async () => {
  const demo = await createTestAccount(app.db, { keyKind: 'demo' })
  const response = await app.fetch('/api/keys', { headers: demo.auth })
  expect(response.status).toBe(403)
  expect((await app.fetch('/api/me', { headers: demo.auth })).status).toBe(200)
})
