// One attempt of a webhook event (the `deliver` job hands webhook rows here): the sealed body, signed
// under the Standard Webhooks scheme with the endpoint's secret (or, for a brief's webhookUrl, the
// account's), POSTed to an address vetted again now (DNS may have changed since registration) and
// pinned for the connection. 2xx is delivered; anything else (redirects are not followed) is a failed
// attempt: retried after WEBHOOK_RETRY_BASE * 2^(n-1), at most WEBHOOK_RETRY_MAX, until
// WEBHOOK_MAX_ATTEMPTS; and counted against the endpoint, which WEBHOOK_DISABLE_AFTER consecutive
// failures disable. A success resets that count.
import http from 'node:http'
import https from 'node:https'
import { Webhook } from 'standardwebhooks'
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import { type DeliveryRecord, markSent, recordFailedAttempt } from '#server/notify/repository/deliveries.ts'
import {
  recordEndpointFailure,
  recordEndpointSuccess,
  type WebhookSecrets,
} from '#server/notify/repository/webhook-endpoints.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import { accountSigningSecret } from '#server/notify/webhooks/endpoints.ts'
import { WebhookTargetSchema } from '#server/notify/webhooks/events.ts'
import { vetWebhookUrl, type WebhookTargetRules } from '#server/notify/webhooks/target.ts'
import { pinnedLookup } from '#server/providers/reader/safe-fetch.ts'

export type WebhookSettings = WebhookTargetRules & {
  retryBaseSeconds: number
  retryMaxSeconds: number
  maxAttempts: number
  disableAfter: number
  timeoutMs: number
  userAgent: string
}

export type WebhookDeliverDeps = {
  db: Db
  secrets: WebhookSecrets
  /** The run a webhook is about (the runs module's; a port). */
  runs: RunsToTell
  jobs: Jobs
  log: Logger
  settings: WebhookSettings
}

/** Where this attempt goes and how it is signed; a string when it cannot go anywhere any more. */
type Destination = { url: string; secret: string; endpointId: string | null } | string

/** Attempt n (1-based) failed: how long until the next. */
export function retryDelaySeconds(
  settings: Pick<WebhookSettings, 'retryBaseSeconds' | 'retryMaxSeconds'>,
  attempt: number,
) {
  return Math.min(settings.retryMaxSeconds, settings.retryBaseSeconds * 2 ** (attempt - 1))
}

export async function deliverWebhookEvent(deps: WebhookDeliverDeps, row: DeliveryRecord): Promise<void> {
  if (row.status !== 'pending') return
  const target = WebhookTargetSchema.parse(row.target)
  const body = row.notice
  const destination = body === null ? 'the event body is missing' : await destinationOf(deps, row, target)
  if (typeof destination === 'string') {
    await recordFailedAttempt(deps.db, row.id, { attempts: row.attempts, error: destination, final: true })
    deps.log.info({ deliveryId: row.id, reason: destination }, 'a webhook event will not be delivered')
    return
  }
  const failure = await attempt(deps.settings, destination, row.id, body as string)
  if (failure === undefined) {
    const { endpointId } = destination
    await deps.db.transaction().execute(async (trx) => {
      await markSent(trx, row.id)
      if (endpointId) await recordEndpointSuccess(trx, endpointId)
    })
    return
  }
  const attempts = row.attempts + 1
  const { settings } = deps
  // The endpoint's count and the delivery's attempt change together: no one reads an endpoint
  // disabled by this failure beside a delivery still pending for it.
  const { disabled, final } = await deps.db.transaction().execute(async (trx) => {
    const disabled = destination.endpointId
      ? (
          await recordEndpointFailure(trx, destination.endpointId, {
            disableAfter: settings.disableAfter,
            reason: `${settings.disableAfter} consecutive failed attempts; the last: ${failure}`,
          })
        )?.disabled
      : false
    const final = disabled === true || attempts >= settings.maxAttempts
    await recordFailedAttempt(trx, row.id, { attempts, error: failure, final })
    return { disabled, final }
  })
  const log = { deliveryId: row.id, endpointId: destination.endpointId, attempts, error: failure }
  if (disabled) deps.log.warn(log, 'a webhook endpoint was disabled after repeated failures')
  if (final) {
    deps.log.warn(log, 'gave up on a webhook event')
    return
  }
  const wait = retryDelaySeconds(settings, attempts)
  deps.log.info({ ...log, retryInSeconds: wait }, 'webhook event will be retried')
  await deps.jobs.send(DELIVER, { deliveryId: row.id }, { startAfter: wait })
}

async function destinationOf(
  deps: WebhookDeliverDeps,
  row: DeliveryRecord,
  target: ReturnType<typeof WebhookTargetSchema.parse>,
): Promise<Destination> {
  if ('endpointId' in target) {
    const endpoint = await deps.secrets.findEndpointWithSecret(deps.db, target.endpointId)
    if (!endpoint) return 'the endpoint was deleted'
    if (endpoint.status === 'disabled')
      return `the endpoint is disabled (${endpoint.disabled_reason ?? 'by its owner'})`
    return { url: endpoint.url, secret: endpoint.signingSecret, endpointId: endpoint.id }
  }
  const run = row.run_id ? await deps.runs.brief(deps.db, row.run_id) : undefined
  if (!run) return 'the run no longer exists'
  const url = run.brief.webhookUrl
  if (!url) return 'the brief has no webhookUrl'
  return { url, secret: await accountSigningSecret(deps, run.accountId), endpointId: null }
}

/** One POST; undefined when delivered, else what went wrong, as the endpoint's owner reads it. */
async function attempt(
  settings: WebhookSettings,
  destination: Exclude<Destination, string>,
  messageId: string,
  body: string,
): Promise<string | undefined> {
  const vetted = await vetWebhookUrl(destination.url, settings)
  if (!vetted.ok) return `the URL ${vetted.reason}`
  const timestamp = new Date()
  const signature = new Webhook(destination.secret).sign(messageId, timestamp, body)
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': settings.userAgent,
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  }
  try {
    const status = await post(vetted.url, vetted.addresses, headers, body, settings.timeoutMs)
    if (status >= 200 && status < 300) return undefined
    return status >= 300 && status < 400
      ? `the endpoint redirected (${status}); redirects are not followed`
      : `the endpoint answered ${status}`
  } catch (error) {
    return networkFailure(error, settings.timeoutMs)
  }
}

function post(
  url: URL,
  addresses: Parameters<typeof pinnedLookup>[0],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        // A fresh connection each time, to the vetted addresses only.
        agent: false,
        lookup: pinnedLookup(addresses),
        signal: AbortSignal.timeout(timeoutMs),
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        // The answer's body is not read: only the status says whether the event arrived.
        response.destroy()
        resolve(response.statusCode ?? 0)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

function networkFailure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | null)?.name
  if (name === 'AbortError' || name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'ECONNREFUSED') return 'the connection was refused'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was closed'
  if (typeof code === 'string' && (code.includes('CERT') || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))) {
    return 'the TLS certificate was not accepted'
  }
  return typeof code === 'string' ? `the connection failed (${code.slice(0, 40)})` : 'the connection failed'
}
