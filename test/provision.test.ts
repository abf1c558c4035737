import { expect, test } from 'vitest'
import { findAccountByEmail } from '#server/accounts/accounts.ts'
import { createApiKeyVerifier, generateApiKey } from '#server/accounts/api-keys.ts'
import { DEMO_ACCOUNT_EMAIL, LOCAL_ACCOUNT_EMAIL } from '#server/accounts/contract.ts'
import { provisionAccounts } from '#server/accounts/provision.ts'
import { loadConfig } from '#server/config.ts'
import { startTestApp } from '#test/support/app.ts'
import { createTestDatabase } from '#test/support/database.ts'

test('the first boot creates the demo key and the local account once; later boots create nothing', async () => {
  const { db, drop } = await createTestDatabase()
  try {
    const config = loadConfig({ NODE_ENV: 'test' }) // no DATABASE_URL: the embedded default
    const first = await provisionAccounts(db, config)
    expect(first.created.demoKey).toMatch(/^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/)
    expect(first.created.local).toMatchObject({ email: LOCAL_ACCOUNT_EMAIL, password: expect.any(String) })
    const verifier = createApiKeyVerifier(db)
    expect(await verifier.verify(first.created.demoKey as string)).toMatchObject({ keyKind: 'demo' })
    expect(await verifier.verify(first.created.local?.apiKey as string)).toMatchObject({
      accountId: first.localAccountId,
      keyKind: 'standard',
    })

    const second = await provisionAccounts(db, config)
    expect(second.created).toEqual({ demoKey: undefined, local: undefined })
    expect(second.localAccountId).toBe(first.localAccountId)
  } finally {
    await drop()
  }
})

test('DEMO_KEY sets the demo key, and changing it retires the old one', async () => {
  const { db, drop } = await createTestDatabase()
  try {
    const verifier = createApiKeyVerifier(db, { ttlMs: 0 })
    const generated = await provisionAccounts(db, loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://x/y' }))
    const configured = generateApiKey()
    const provisioned = await provisionAccounts(
      db,
      loadConfig({ DATABASE_URL: 'postgres://x/y', DEMO_KEY: configured }),
    )
    expect(provisioned.created.demoKey).toBeUndefined()
    expect(provisioned.localAccountId).toBeUndefined() // with DATABASE_URL, no local account
    expect(await verifier.verify(configured)).toMatchObject({ keyKind: 'demo' })
    expect(await verifier.verify(generated.created.demoKey as string)).toBeUndefined()
    expect(await findAccountByEmail(db, DEMO_ACCOUNT_EMAIL)).toMatchObject({ kind: 'demo' })
    expect(await findAccountByEmail(db, LOCAL_ACCOUNT_EMAIL)).toBeUndefined()
  } finally {
    await drop()
  }
})

test('local development auth: no header from loopback acts as the local account, and only when enabled', async () => {
  const withLocal = await startTestApp({ env: { LOCAL_DEV_AUTH: 'true' } })
  try {
    const response = await withLocal.fetch('/api/me')
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ account: { email: LOCAL_ACCOUNT_EMAIL }, auth: { via: 'local_dev' } })
    // A wrong key is still refused: the exception is for no header at all.
    const wrong = await withLocal.fetch('/api/me', { headers: { Authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
  } finally {
    await withLocal.stop()
  }
  const without = await startTestApp()
  try {
    expect((await without.fetch('/api/me')).status).toBe(401)
  } finally {
    await without.stop()
  }
})
