// API keys look like sx_<prefix>_<secret>. The prefix is stored in the clear to find the key; the
// secret only as an argon2id hash. The full key is shown once, when created. The SQL is
// server/accounts/repository/api-keys.ts's.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import type { Db } from '#db/database.ts'
import {
  type ApiKeySummary,
  KEY_CACHE_TTL_MS,
  KeyCheckBudgetError,
  KeyLimitError,
  type KeyPrincipal,
} from '#server/accounts/contract.ts'
import { lockAccount } from '#server/accounts/repository/accounts.ts'
import {
  type ApiKeyRow,
  countActiveApiKeys,
  findApiKeyByPrefix,
  insertApiKey,
  listApiKeyRows,
  revokeApiKeyRow,
  touchApiKey,
} from '#server/accounts/repository/api-keys.ts'
import { hashSecret, randomString, sha256, verifySecret } from '#server/crypto/secrets.ts'
import { announceStreamsEnded, streamPrincipal } from '#server/events/stream-principals.ts'
import { createInFlightGate } from '#server/limits/in-flight.ts'
import type { ApiKeyKind } from '#server/vocabulary/accounts.ts'

const KEY_PATTERN = /^sx_([a-z0-9]{8})_([A-Za-z0-9]{32})$/
const PREFIX_PATTERN = /^[a-z0-9]{8}$/
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

export function parseApiKey(key: string): { prefix: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(key)
  return match ? { prefix: match[1] as string, secret: match[2] as string } : undefined
}

export function generateApiKey(): string {
  return `sx_${randomString(8, PREFIX_ALPHABET)}_${randomString(32)}`
}

/** Stores `key` (generated when omitted) for the account; returns the full key, shown once. */
export async function createApiKey(
  db: Db,
  input: { accountId: string; name: string; kind?: ApiKeyKind; key?: string },
): Promise<{ key: string; summary: ApiKeySummary }> {
  const key = input.key ?? generateApiKey()
  const parsed = parseApiKey(key)
  if (!parsed) throw new Error('malformed API key')
  const row = await insertApiKey(db, {
    accountId: input.accountId,
    prefix: parsed.prefix,
    secretHash: await hashSecret(parsed.secret),
    name: input.name,
    kind: input.kind ?? 'standard',
  })
  return { key, summary: toSummary(row) }
}

/**
 * A new key for an account that has fewer than `maxActive` active keys (KeyLimitError otherwise).
 * Each key has its own MCP allowance, so keys must not be free to mint without end. The account row
 * is locked while counting, so concurrent requests cannot both take the last place.
 */
export async function createAccountApiKey(
  db: Db,
  input: { accountId: string; name: string; maxActive: number },
): Promise<{ key: string; summary: ApiKeySummary }> {
  return db.transaction().execute(async (trx) => {
    await lockAccount(trx, input.accountId)
    if ((await countActiveApiKeys(trx, input.accountId)) >= input.maxActive) throw new KeyLimitError(input.maxActive)
    return createApiKey(trx, { accountId: input.accountId, name: input.name })
  })
}

function toSummary(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    kind: row.kind,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeySummary[]> {
  return (await listApiKeyRows(db, accountId)).map(toSummary)
}

/**
 * Revokes the key with this prefix; with `accountId`, only if it belongs to that account. Every
 * process closes the key's open event streams when this commits.
 */
export async function revokeApiKey(db: Db, prefix: string, accountId?: string): Promise<ApiKeySummary | undefined> {
  // Anything else names no key; and Postgres refuses some strings outright (a NUL byte), a 500.
  if (!PREFIX_PATTERN.test(prefix)) return undefined
  return db.transaction().execute(async (trx) => {
    const row = await revokeApiKeyRow(trx, prefix, accountId)
    if (!row) return undefined
    await announceStreamsEnded(trx, streamPrincipal.api({ keyPrefix: row.prefix, accountId: row.account_id }))
    return toSummary(row)
  })
}

/** argon2 verifications one client address may have running at once; more are refused at once. */
export const KEY_CHECKS_IN_FLIGHT_PER_CLIENT = 2

export type ApiKeyVerifier = {
  /**
   * The principal for a presented key, or undefined for a malformed, unknown, wrong or revoked key.
   * `client` (the caller's address) pays for verifications that miss the cache (and fail): over its
   * budget, this throws KeyCheckBudgetError.
   */
  verify: (key: string, client?: string) => Promise<KeyPrincipal | undefined>
  /** Drops cached verifications of a prefix (revoked here, or announced as revoked by any process). */
  forget: (prefix: string) => void
}

type VerifierOptions = {
  ttlMs?: number
  maxEntries?: number
  /** Verifications that miss the cache and fail, per client address per minute. */
  failuresPerMinute?: number
  /** The argon2 check; injectable so tests can count real verifications. */
  verifySecret?: (hash: string, secret: string) => Promise<boolean>
}

/**
 * Verifies keys, remembering each answer for `ttlMs`; a good one is then renewed from the key's
 * row, with argon2 only if the stored hash changed, so the hot path pays argon2 once per key.
 * Concurrent requests with the same uncached key share one verification. Each client address
 * may run few verifications at once, and only so many that fail per minute (one that succeeds gives
 * its unit back, so many keys behind one address are not held to it): guessing secrets, each a
 * different key that no cache holds, cannot queue argon2 work in front of everyone else's requests.
 * Good and bad answers are cached apart, so a flood of bad keys cannot evict the good ones.
 */
export function createApiKeyVerifier(db: Db, options: VerifierOptions = {}): ApiKeyVerifier {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS
  const maxEntries = options.maxEntries ?? 10_000
  const checkSecret = options.verifySecret ?? verifySecret
  // A good answer is kept past its expiry (until evicted) with the stored hash it was checked
  // against: when it expires, the key's row is read again, and argon2 runs only if the hash changed.
  const good = new Map<string, { principal: KeyPrincipal; prefix: string; expiresAt: number; secretHash: string }>()
  const bad = new Map<string, { prefix: string; expiresAt: number }>()
  const inFlight = new Map<string, Promise<KeyPrincipal | undefined>>()
  const running = createInFlightGate(KEY_CHECKS_IN_FLIGHT_PER_CLIENT)
  const perMinute = new RateLimiterMemory({ points: options.failuresPerMinute ?? 30, duration: 60 })
  // Bumped by forget(): a verification that started before a revocation must not cache its answer.
  let generation = 0

  /**
   * The key's row, checked: not revoked, and its secret matching the stored hash. `checkedHash` is
   * a hash this very key (the same secret) was verified against before: argon2 gives the same answer
   * for the same hash and secret, so it is not run again (it took 20-70 ms of a request every TTL).
   */
  async function lookup(prefix: string, secret: string, checkedHash: string | undefined) {
    const row = await findApiKeyByPrefix(db, prefix)
    if (!row || row.revoked_at !== null) return undefined
    if (row.secret_hash !== checkedHash && !(await checkSecret(row.secret_hash, secret))) return undefined
    await touchApiKey(db, row.id)
    const principal: KeyPrincipal = {
      accountId: row.account_id,
      keyId: row.id,
      keyPrefix: row.prefix,
      keyKind: row.kind,
    }
    return { principal, secretHash: row.secret_hash }
  }

  /** A slot of the client's (taken synchronously, so concurrent requests see it) and a minute's unit. */
  async function spendBudget(client: string): Promise<() => void> {
    const release = running.enter(client)
    if (!release) throw new KeyCheckBudgetError(1)
    try {
      await perMinute.consume(client)
      return release
    } catch (error) {
      release()
      if (error instanceof RateLimiterRes) throw new KeyCheckBudgetError(Math.ceil(error.msBeforeNext / 1000))
      throw error
    }
  }

  function remember<T extends { prefix: string; expiresAt: number }>(cache: Map<string, T>, key: string, entry: T) {
    cache.delete(key)
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string) // oldest first
    cache.set(key, entry)
  }

  async function verifyUncached(cacheKey: string, prefix: string, secret: string) {
    const started = generation
    const checked = await lookup(prefix, secret, good.get(cacheKey)?.secretHash)
    if (generation === started) {
      const expiresAt = Date.now() + ttlMs
      if (checked) remember(good, cacheKey, { ...checked, prefix, expiresAt })
      else {
        good.delete(cacheKey)
        remember(bad, cacheKey, { prefix, expiresAt })
      }
    }
    return checked?.principal
  }

  return {
    async verify(key, client = 'unknown') {
      const parsed = parseApiKey(key)
      if (!parsed) return undefined
      const cacheKey = sha256(key)
      const now = Date.now()
      const known = good.get(cacheKey)
      if (known && known.expiresAt > now) return known.principal
      const refused = bad.get(cacheKey)
      if (refused && refused.expiresAt > now) return undefined
      const pending = inFlight.get(cacheKey)
      if (pending) return pending
      const release = await spendBudget(client)
      // Someone else may have started this key while the budget was checked: share theirs.
      const raced = inFlight.get(cacheKey)
      if (raced) {
        release()
        return raced
      }
      const verification = verifyUncached(cacheKey, parsed.prefix, parsed.secret)
        .then(async (principal) => {
          if (principal) await perMinute.reward(client)
          return principal
        })
        .finally(() => {
          inFlight.delete(cacheKey)
          release()
        })
      inFlight.set(cacheKey, verification)
      return verification
    },
    forget(prefix) {
      generation += 1
      for (const cache of [good, bad] as Map<string, { prefix: string }>[]) {
        for (const [cacheKey, entry] of cache) if (entry.prefix === prefix) cache.delete(cacheKey)
      }
    },
  }
}
