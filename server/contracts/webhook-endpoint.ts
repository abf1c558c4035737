// An outbound webhook endpoint as the API shows it: never its secret, except once, in the answer that
// creates it or rotates it.
import { z } from 'zod'
import { WEBHOOK_ENDPOINT_STATUSES, WEBHOOK_EVENT_TYPES } from '#server/vocabulary/notify.ts'

const timestamp = () => z.iso.datetime()

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES)

export const WebhookEndpointViewSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(WebhookEventTypeSchema),
  description: z.string().nullable(),
  status: z
    .enum(WEBHOOK_ENDPOINT_STATUSES)
    .describe('disabled: after WEBHOOK_DISABLE_AFTER consecutive failed attempts; no more events go there.'),
  disabledReason: z.string().nullable().describe('Why the endpoint was disabled (its last failure).'),
  disabledAt: timestamp().nullable(),
  consecutiveFailures: z.number().int().describe('Failed attempts since the last delivered one.'),
  lastSuccessAt: timestamp().nullable(),
  lastFailureAt: timestamp().nullable(),
  createdAt: timestamp(),
  secretRotatedAt: timestamp().nullable(),
})

const secret = z.string().describe('The signing secret (Standard Webhooks, `whsec_...`); shown in this answer only.')

export const CreatedWebhookEndpointSchema = WebhookEndpointViewSchema.extend({ secret })

export const AccountWebhookSecretSchema = z.object({
  secret: z.string().describe('The signing secret (`whsec_...`) of events sent to a brief\u2019s webhookUrl.'),
})

export type WebhookEndpointView = z.infer<typeof WebhookEndpointViewSchema>

type Dates = 'disabledAt' | 'lastSuccessAt' | 'lastFailureAt' | 'createdAt' | 'secretRotatedAt'

/** An endpoint as the server holds it: the view's fields, its times as dates. */
type HeldEndpoint = Omit<WebhookEndpointView, Dates> & {
  [K in Dates]: null extends WebhookEndpointView[K] ? Date | null : Date
}

export function presentEndpoint(endpoint: HeldEndpoint): WebhookEndpointView {
  const iso = (date: Date | null) => date?.toISOString() ?? null
  return {
    ...endpoint,
    disabledAt: iso(endpoint.disabledAt),
    lastSuccessAt: iso(endpoint.lastSuccessAt),
    lastFailureAt: iso(endpoint.lastFailureAt),
    createdAt: endpoint.createdAt.toISOString(),
    secretRotatedAt: iso(endpoint.secretRotatedAt),
  }
}
