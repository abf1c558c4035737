// The accounts module's contract (decision 063): the caller and its API keys as the API shows them
// (dates as ISO strings, never a secret but once); the accounts, keys and visitors the rest of the
// server is handed, and the errors it may catch; and the cookies a browser is given (a session, a
// trial visitor, a device that logged in before) and read back.
import { z } from 'zod'
import { ACCOUNT_KINDS, type AccountKind, API_KEY_KINDS, type ApiKeyKind } from '#server/vocabulary/accounts.ts'

const timestamp = () => z.iso.datetime()

export const ApiKeySchema = z.object({
  id: z.uuid(),
  prefix: z.string().describe('The 8 characters after `sx_`: how a key is named in lists and URLs.'),
  name: z.string(),
  kind: z.enum(API_KEY_KINDS),
  createdAt: timestamp(),
  lastUsedAt: timestamp().nullable(),
  revokedAt: timestamp().nullable(),
})

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The full key, `sx_<prefix>_<secret>`: shown in this response only.'),
})

export const MeSchema = z.object({
  account: z.object({ id: z.uuid(), email: z.string(), kind: z.enum(ACCOUNT_KINDS) }),
  auth: z.object({
    via: z.enum(['api_key', 'local_dev']),
    keyPrefix: z.string().nullable(),
    demo: z.boolean().describe('Called with the public demo key: runs count against its daily limit.'),
  }),
})

export type ApiKeyView = z.infer<typeof ApiKeySchema>
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>
export type Me = z.infer<typeof MeSchema>

// --- Accounts -----------------------------------------------------------------------------------

export type Account = { id: string; email: string; kind: AccountKind; createdAt: Date }

/** The account a local install makes for its owner, and the demo key's. */
export const LOCAL_ACCOUNT_EMAIL = 'you@sextant.local'
export const DEMO_ACCOUNT_EMAIL = 'demo@sextant.local'

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists.`)
    this.name = 'EmailTakenError'
  }
}

/**
 * Whoever calls with the public demo key acts as the demo visitor of their address: an account of
 * kind 'demo' of its own, its id derived from the address (services.accounts.visitor).
 */
export type DemoVisitor = { accountId: string; email: string }

// --- API keys -----------------------------------------------------------------------------------

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

/**
 * How long a verification is remembered. Revocation is announced to every process (which then forgets
 * the key), so this only bounds a process that missed the announcement.
 */
export const KEY_CACHE_TTL_MS = 10_000

/** The account already has as many active keys as it may. */
export class KeyLimitError extends Error {
  readonly limit: number
  constructor(limit: number) {
    super(
      `An account can have at most ${limit} active API keys. Revoke one you no longer use, then create the new one.`,
    )
    this.name = 'KeyLimitError'
    this.limit = limit
  }
}

/** A client address has used its share of argon2 verifications: answer 429, do no work. */
export class KeyCheckBudgetError extends Error {
  readonly retryAfterSeconds: number
  constructor(retryAfterSeconds: number) {
    super('Too many API key verifications from this address; try again shortly.')
    this.name = 'KeyCheckBudgetError'
    this.retryAfterSeconds = retryAfterSeconds
  }
}

// --- Cookies ------------------------------------------------------------------------------------

const DAY_MS = 86_400_000

export const SESSION_COOKIE = 'sx_session'
/** How long a dashboard session lasts. */
export const SESSION_DAYS = 30
export const TRIAL_COOKIE = 'sx_trial'
const TRIAL_DAYS = 30
export const DEVICE_COOKIE = 'sx_device'
/** How long a device stays known without logging in again. */
export const DEVICE_DAYS = 180

export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key !== name) continue
    try {
      return decodeURIComponent(value.join('='))
    } catch {
      return undefined // malformed percent-encoding: no such cookie, not an error
    }
  }
  return undefined
}

/** Set-Cookie for a session; `secure` off only for plain-HTTP local use. */
export function sessionCookie(token: string, options: { expiresAt: Date; secure: boolean }): string {
  const attributes = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  attributes.push(`Expires=${options.expiresAt.toUTCString()}`)
  if (options.secure) attributes.push('Secure')
  return attributes.join('; ')
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT`
}

export function trialCookie(token: string, secure: boolean): string {
  const expires = new Date(Date.now() + TRIAL_DAYS * DAY_MS).toUTCString()
  return `${TRIAL_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Expires=${expires}${secure ? '; Secure' : ''}`
}

/** The device cookie: sent only to the login page, never to scripts, for DEVICE_DAYS. */
export function deviceCookie(token: string, options: { secure: boolean }): string {
  const attributes = [
    `${DEVICE_COOKIE}=${token}`,
    'Path=/login',
    `Max-Age=${DEVICE_DAYS * 86_400}`,
    'HttpOnly',
    'SameSite=Lax',
  ]
  if (options.secure) attributes.push('Secure')
  return attributes.join('; ')
}
