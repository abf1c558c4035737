// An account's webhook endpoints: registered (the URL vetted like the page reader's, the secret made
// here, sealed, and shown once), listed without secrets, deleted, their secret rotated (the new one
// shown once). And the account's own signing secret, which signs events sent to a brief's one-off
// webhookUrl: made on first need (a delivery, or the account asking for it), readable by the account
// through the API (GET /api/webhooks/secret), rotatable. Secrets are in the Standard Webhooks format:
// `whsec_` and 32 random bytes in base64, which any Standard Webhooks library (and svix) takes as is.
// The SQL, and the sealing of the secrets, is server/notify/repository/webhook-endpoints.ts's.
import { randomBytes, randomUUID } from 'node:crypto'
import type { Db } from '#db/database.ts'
import type { LockAccount } from '#server/notify/account-lock.ts'
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  type WebhookEndpointRecord,
  type WebhookSecrets,
} from '#server/notify/repository/webhook-endpoints.ts'
import { vetWebhookUrl, type WebhookTargetRules } from '#server/notify/webhooks/target.ts'
import type { WebhookEndpointStatus, WebhookEventType } from '#server/vocabulary/notify.ts'

/** Enough for every integration an account might run; a bound so one account cannot fan out without end. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20

export type WebhookEndpoint = {
  id: string
  url: string
  events: WebhookEventType[]
  description: string | null
  status: WebhookEndpointStatus
  disabledReason: string | null
  disabledAt: Date | null
  consecutiveFailures: number
  lastSuccessAt: Date | null
  lastFailureAt: Date | null
  createdAt: Date
  secretRotatedAt: Date | null
}

export type NewEndpoint = { url: string; events: WebhookEventType[]; description?: string }

export type EndpointRegistration =
  | { ok: true; endpoint: WebhookEndpoint; secret: string }
  | { ok: false; reason: 'url'; message: string }
  | { ok: false; reason: 'limit'; message: string }

export type EndpointDeps = { db: Db; secrets: WebhookSecrets; rules: WebhookTargetRules; lockAccount: LockAccount }

function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function toEndpoint(row: WebhookEndpointRecord): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    consecutiveFailures: row.consecutive_failures,
    lastSuccessAt: row.last_success_at,
    lastFailureAt: row.last_failure_at,
    createdAt: row.created_at,
    secretRotatedAt: row.secret_rotated_at,
  }
}

export async function registerEndpoint(
  deps: EndpointDeps,
  accountId: string,
  input: NewEndpoint,
): Promise<EndpointRegistration> {
  const vetted = await vetWebhookUrl(input.url, deps.rules)
  if (!vetted.ok) return { ok: false, reason: 'url', message: `url ${vetted.reason}` }
  const id = randomUUID()
  const secret = newSigningSecret()
  // Counted and inserted under the account's row lock: concurrent registrations queue here, so the
  // cap holds however many arrive at once.
  const row = await deps.db.transaction().execute(async (trx) => {
    await deps.lockAccount(trx, accountId)
    if ((await countWebhookEndpoints(trx, accountId)) >= MAX_ENDPOINTS_PER_ACCOUNT) return undefined
    return deps.secrets.insertEndpoint(trx, {
      id,
      accountId,
      url: vetted.url.href,
      events: input.events,
      description: input.description ?? null,
      secret,
    })
  })
  if (!row) {
    return {
      ok: false,
      reason: 'limit',
      message: `An account may have ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first.`,
    }
  }
  return { ok: true, endpoint: toEndpoint(row), secret }
}

export async function listEndpoints(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  return (await listWebhookEndpoints(db, accountId)).map(toEndpoint)
}

export function removeEndpoint(db: Db, accountId: string, id: string): Promise<boolean> {
  return deleteWebhookEndpoint(db, id, accountId)
}

/** A new secret for the endpoint, in force at once (the old one stops signing); undefined when not the account's. */
export async function rotateEndpointSecret(
  deps: Pick<EndpointDeps, 'db' | 'secrets'>,
  accountId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string } | undefined> {
  const secret = newSigningSecret()
  const row = await deps.secrets.replaceEndpointSecret(deps.db, id, accountId, secret)
  return row && { endpoint: toEndpoint(row), secret }
}

/** The account's signing secret for a brief's webhookUrl, made on first need. */
export async function accountSigningSecret(
  deps: Pick<EndpointDeps, 'db' | 'secrets'>,
  accountId: string,
): Promise<string> {
  const stored = await deps.secrets.accountSecret(deps.db, accountId)
  if (stored !== undefined) return stored
  await deps.secrets.insertAccountSecret(deps.db, accountId, newSigningSecret())
  const made = await deps.secrets.accountSecret(deps.db, accountId)
  if (made === undefined) throw new Error(`the webhook secret of account ${accountId} was not stored`)
  return made
}

export async function rotateAccountSecret(
  deps: Pick<EndpointDeps, 'db' | 'secrets'>,
  accountId: string,
): Promise<string> {
  const secret = newSigningSecret()
  await deps.secrets.replaceAccountSecret(deps.db, accountId, secret)
  return secret
}
