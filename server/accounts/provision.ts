// Accounts and keys that exist without anyone signing up: the demo account with the public demo
// key (always), and, for the embedded default or local development auth, a local account with a
// password and an API key. Secrets created here are returned once, to be printed once.

import type { Db } from '#db/database.ts'
import { createAccount, findAccountByEmail } from '#server/accounts/accounts.ts'
import { createApiKey, parseApiKey } from '#server/accounts/api-keys.ts'
import { DEMO_ACCOUNT_EMAIL, LOCAL_ACCOUNT_EMAIL } from '#server/accounts/contract.ts'
import { lockProvisioning } from '#server/accounts/repository/accounts.ts'
import {
  countActiveApiKeys,
  findApiKeyByPrefix,
  resetApiKeySecret,
  revokeOtherApiKeys,
} from '#server/accounts/repository/api-keys.ts'
import type { Config } from '#server/config.ts'
import { hashSecret, randomString, verifySecret } from '#server/crypto/secrets.ts'

export type Provisioned = {
  localAccountId: string | undefined
  /** Secrets made during this boot; empty on every later boot. */
  created: { demoKey?: string; local?: { email: string; password: string; apiKey: string } }
}

async function ensureDemoKey(trx: Db, configured: string | undefined): Promise<string | undefined> {
  const account =
    (await findAccountByEmail(trx, DEMO_ACCOUNT_EMAIL)) ??
    (await createAccount(trx, { email: DEMO_ACCOUNT_EMAIL, kind: 'demo' }))
  const parsed = configured ? parseApiKey(configured) : undefined
  if (configured && parsed) {
    const existing = await findApiKeyByPrefix(trx, parsed.prefix)
    if (!existing) {
      await createApiKey(trx, { accountId: account.id, name: 'demo', kind: 'demo', key: configured })
    } else if (existing.account_id !== account.id || existing.kind !== 'demo') {
      throw new Error('DEMO_KEY has the prefix of an existing non-demo key; choose another DEMO_KEY.')
    } else if (existing.revoked_at !== null || !(await verifySecret(existing.secret_hash, parsed.secret))) {
      await resetApiKeySecret(trx, existing.id, await hashSecret(parsed.secret))
    }
    // Only the configured demo key works; older generated ones are retired.
    await revokeOtherApiKeys(trx, account.id, parsed.prefix)
    return undefined
  }
  if ((await countActiveApiKeys(trx, account.id)) > 0) return undefined
  const { key } = await createApiKey(trx, { accountId: account.id, name: 'demo', kind: 'demo' })
  return key
}

async function ensureLocalAccount(trx: Db): Promise<{ id: string; created?: Provisioned['created']['local'] }> {
  const existing = await findAccountByEmail(trx, LOCAL_ACCOUNT_EMAIL)
  if (existing) return { id: existing.id }
  const password = randomString(20)
  const account = await createAccount(trx, { email: LOCAL_ACCOUNT_EMAIL, password, kind: 'local' })
  const { key } = await createApiKey(trx, { accountId: account.id, name: 'local' })
  return { id: account.id, created: { email: account.email, password, apiKey: key } }
}

export async function provisionAccounts(db: Db, config: Config): Promise<Provisioned> {
  return db.transaction().execute(async (trx) => {
    // Web and worker processes may boot together: one provisions, the other then finds it done.
    await lockProvisioning(trx)
    const demoKey = await ensureDemoKey(trx, config.DEMO_KEY)
    const local = config.embeddedDatabase || config.LOCAL_DEV_AUTH ? await ensureLocalAccount(trx) : undefined
    return { localAccountId: local?.id, created: { demoKey, local: local?.created } }
  })
}
