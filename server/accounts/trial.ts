// The no-login trial: each visitor gets a random token in an httpOnly cookie and an account of
// kind 'trial' found by the token's hash. Trial runs use the demo key's limit (per IP per day).
import type { Db } from '#db/database.ts'
import { findAccountIdByTrialTokenHash, insertTrialAccount } from '#server/accounts/repository/accounts.ts'
import { randomToken, sha256 } from '#server/crypto/secrets.ts'

/** The trial account for this token, if the visitor has one. */
export async function findTrialAccountId(db: Db, token: string): Promise<string | undefined> {
  return findAccountIdByTrialTokenHash(db, sha256(token))
}

/** A new trial visitor: a token for the cookie and an account tied to it. */
export async function createTrialAccount(db: Db): Promise<{ token: string; accountId: string }> {
  const token = randomToken()
  const hash = sha256(token)
  const accountId = await insertTrialAccount(db, {
    email: `trial-${hash.slice(0, 16)}@trial.sextant.local`,
    tokenHash: hash,
  })
  return { token, accountId }
}
