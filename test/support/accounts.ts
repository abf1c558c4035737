// Factories for accounts and keys in tests.
import { randomBytes } from 'node:crypto'
import type { Db } from '#db/database.ts'
import { createAccount } from '#server/accounts/accounts.ts'
import { createApiKey } from '#server/accounts/api-keys.ts'
import type { ApiKeyKind } from '#server/vocabulary/accounts.ts'

export async function createTestAccount(db: Db, options: { password?: string; keyKind?: ApiKeyKind } = {}) {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`
  const password = options.password ?? `pw-${randomBytes(8).toString('hex')}`
  const account = await createAccount(db, { email, password })
  const { key, summary } = await createApiKey(db, { accountId: account.id, name: 'test', kind: options.keyKind })
  return { account, email, password, key, prefix: summary.prefix, auth: { Authorization: `Bearer ${key}` } }
}
