// Accounts and how callers prove who they are: sign-up and password login (throttled), page
// sessions, trial visitors, the demo key's visitors, and API keys (list, create within the
// account's allowance, revoke, verify).

import type { Db } from '#db/database.ts'
import { authenticateWithPassword, createAccount, findAccountByEmail, getAccount } from '#server/accounts/accounts.ts'
import {
  type ApiKeyVerifier,
  createAccountApiKey,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from '#server/accounts/api-keys.ts'
import type { Account, ApiKeySummary, DemoVisitor } from '#server/accounts/contract.ts'
import { demoVisitor } from '#server/accounts/demo-visitors.ts'
import { ensureDemoVisitorAccount } from '#server/accounts/repository/accounts.ts'
import { createSession, deleteSession, getSessionAccount } from '#server/accounts/sessions.ts'
import { isStreamPrincipalActive } from '#server/accounts/streams.ts'
import { createTrialAccount, findTrialAccountId } from '#server/accounts/trial.ts'

export function createAccountService(deps: { db: Db }) {
  const { db } = deps
  return {
    get: (accountId: string): Promise<Account | undefined> => getAccount(db, accountId),
    findByEmail: (email: string): Promise<Account | undefined> => findAccountByEmail(db, email),
    /** A new standard account; EmailTakenError when the address has one. */
    create: (input: { email: string; password: string }): Promise<Account> => createAccount(db, input),
    /** The account whose password this is, or undefined (callers throttle attempts: see login-throttle.ts). */
    authenticate: (email: string, password: string): Promise<Account | undefined> =>
      authenticateWithPassword(db, email, password),
    sessions: {
      create: (accountId: string) => createSession(db, accountId),
      account: (token: string): Promise<Account | undefined> => getSessionAccount(db, token),
      /** Logs out: every process ends the session's open event streams. */
      delete: (token: string) => deleteSession(db, token),
    },
    trial: {
      /** The trial account of a cookie's token, if the visitor has one. */
      find: (token: string): Promise<string | undefined> => findTrialAccountId(db, token),
      create: () => createTrialAccount(db),
    },
    /** The demo visitor of a client address: the same address always gets the same account. */
    visitor: demoVisitor,
    /** Writes a demo visitor's account, if not there yet, before anything refers to it. */
    ensureVisitor: (visitor: DemoVisitor): Promise<void> => ensureDemoVisitorAccount(db, visitor),
    /** Whether a session's or key's event streams may stay open (the event hub's port). */
    isStreamPrincipalActive: (principal: string): Promise<boolean> => isStreamPrincipalActive(db, principal),
  }
}

export type KeyServiceDeps = {
  db: Db
  verifier: ApiKeyVerifier
  /** API_KEYS_PER_ACCOUNT: active keys an account may hold through the API and the dashboard. */
  maxActive: number
}

export function createKeyService(deps: KeyServiceDeps) {
  const { db, verifier } = deps
  return {
    list: (accountId: string): Promise<ApiKeySummary[]> => listApiKeys(db, accountId),
    /** A new key within the account's allowance (KeyLimitError past it); the key is shown once. */
    create: (accountId: string, name: string) =>
      createAccountApiKey(db, { accountId, name, maxActive: deps.maxActive }),
    /** The operator's key (the CLI): no allowance applies. */
    createUnlimited: (accountId: string, name: string) => createApiKey(db, { accountId, name }),
    /**
     * Revokes the key with this prefix (with `accountId`, only the account's own); its open event
     * streams end in every process, and this process forgets it at once.
     */
    async revoke(prefix: string, accountId?: string): Promise<ApiKeySummary | undefined> {
      const revoked = await revokeApiKey(db, prefix, accountId)
      if (revoked) verifier.forget(revoked.prefix)
      return revoked
    },
    verify: verifier.verify,
    forget: verifier.forget,
  }
}

export type AccountService = ReturnType<typeof createAccountService>
export type KeyService = ReturnType<typeof createKeyService>
