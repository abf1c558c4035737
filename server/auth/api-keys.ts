// API keys look like sx_<prefix>_<secret>. The prefix is stored in the clear to find the key; the
// secret only as an argon2id hash. The full key is shown once, when created.
import type { Db } from '#db/database.ts'
import { hashSecret, randomString, sha256, verifySecret } from '#server/auth/secrets.ts'
import { announceStreamsEnded, streamPrincipal } from '#server/auth/stream-principals.ts'

export type ApiKeyKind = 'standard' | 'demo'

export type ApiKeySummary = {
  id: string
  prefix: string
  name: string
  kind: ApiKeyKind
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}

/** Who is calling, when the caller presented a valid key. */
export type KeyPrincipal = {
  accountId: string
  keyId: string
  keyPrefix: string
  keyKind: ApiKeyKind
}

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
  const row = await db
    .insertInto('api_keys')
    .values({
      account_id: input.accountId,
      prefix: parsed.prefix,
      secret_hash: await hashSecret(parsed.secret),
      name: input.name,
      kind: input.kind ?? 'standard',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { key, summary: toSummary(row) }
}

function toSummary(row: {
  id: string
  prefix: string
  name: string
  kind: ApiKeyKind
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}): ApiKeySummary {
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
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map(toSummary)
}

/**
 * Revokes the key with this prefix; with `accountId`, only if it belongs to that account. Every
 * process closes the key's open event streams when this commits.
 */
export async function revokeApiKey(db: Db, prefix: string, accountId?: string): Promise<ApiKeySummary | undefined> {
  // Anything else names no key; and Postgres refuses some strings outright (a NUL byte), a 500.
  if (!PREFIX_PATTERN.test(prefix)) return undefined
  return db.transaction().execute(async (trx) => {
    let query = trx.updateTable('api_keys').set({ revoked_at: new Date() }).where('prefix', '=', prefix)
    if (accountId) query = query.where('account_id', '=', accountId)
    const row = await query.where('revoked_at', 'is', null).returningAll().executeTakeFirst()
    if (!row) return undefined
    await announceStreamsEnded(trx, streamPrincipal.api({ keyPrefix: row.prefix, accountId: row.account_id }))
    return toSummary(row)
  })
}

/**
 * How long a verification is remembered. Revocation is announced to every process (which then forgets
 * the key), so this only bounds a process that missed the announcement.
 */
export const KEY_CACHE_TTL_MS = 10_000

export type ApiKeyVerifier = {
  /** The principal for a presented key, or undefined for a malformed, unknown, wrong or revoked key. */
  verify: (key: string) => Promise<KeyPrincipal | undefined>
  /** Drops cached verifications of a prefix (revoked here, or announced as revoked by any process). */
  forget: (prefix: string) => void
}

/**
 * Verifies keys, remembering each answer (good or bad) for `ttlMs`, so the hot path pays argon2
 * once per key per TTL and a flood of wrong guesses at one key does not become a flood of argon2.
 * A key revoked elsewhere stops working within `ttlMs`.
 */
export function createApiKeyVerifier(db: Db, options: { ttlMs?: number; maxEntries?: number } = {}): ApiKeyVerifier {
  const ttlMs = options.ttlMs ?? KEY_CACHE_TTL_MS
  const maxEntries = options.maxEntries ?? 10_000
  const cache = new Map<string, { principal: KeyPrincipal | undefined; prefix: string; expiresAt: number }>()

  async function lookup(prefix: string, secret: string): Promise<KeyPrincipal | undefined> {
    const row = await db
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'prefix', 'kind', 'secret_hash', 'revoked_at'])
      .where('prefix', '=', prefix)
      .executeTakeFirst()
    if (!row || row.revoked_at !== null || !(await verifySecret(row.secret_hash, secret))) return undefined
    await db.updateTable('api_keys').set({ last_used_at: new Date() }).where('id', '=', row.id).execute()
    return { accountId: row.account_id, keyId: row.id, keyPrefix: row.prefix, keyKind: row.kind }
  }

  return {
    async verify(key) {
      const parsed = parseApiKey(key)
      if (!parsed) return undefined
      const cacheKey = sha256(key)
      const cached = cache.get(cacheKey)
      if (cached && cached.expiresAt > Date.now()) return cached.principal
      const principal = await lookup(parsed.prefix, parsed.secret)
      cache.delete(cacheKey)
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string) // oldest first
      cache.set(cacheKey, { principal, prefix: parsed.prefix, expiresAt: Date.now() + ttlMs })
      return principal
    },
    forget(prefix) {
      for (const [cacheKey, entry] of cache) if (entry.prefix === prefix) cache.delete(cacheKey)
    },
  }
}
