// What the rest of the server may use of the notify module besides its service (decision 063): the
// views its surfaces answer with, built from the vocabulary (server/vocabulary/notify.ts).
//  - An outbound webhook endpoint as the API shows it: never its secret, except once, in the answer
//    that creates it or rotates it.
//  - An account's email addresses.
//  - A private Atom feed: what it follows, never its token but once (at creation).
import { z } from 'zod'
import { WEBHOOK_ENDPOINT_STATUSES, WEBHOOK_EVENT_TYPES } from '#server/vocabulary/notify.ts'

// Webhook endpoints.

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

// Email addresses.

/** Enough for a person and a team list or two; each one can be mailed a confirmation. */
export const MAX_ADDRESSES_PER_ACCOUNT = 10

export const EmailAddressSchema = z.object({
  addressId: z.uuid(),
  address: z.string(),
  verified: z
    .boolean()
    .describe('Only verified addresses get digests: the link mailed to the address verifies it (within 24 hours).'),
  createdAt: z.iso.datetime(),
})

export const EmailAddressListSchema = z.object({
  enabled: z.boolean().describe('False when the server has no SMTP_URL: no email is sent at all.'),
  addresses: z.array(EmailAddressSchema),
})

export type EmailAddressView = z.infer<typeof EmailAddressSchema>

// Feeds.

export const FeedViewSchema = z.object({
  id: z.uuid(),
  topic: z.string().describe('The topic the feed follows, as it was named when the feed was made.'),
  topicId: z.uuid().nullable().describe('Set when the feed follows a topic.'),
  seriesId: z.uuid().nullable().describe('Set when the feed follows a recurring brief.'),
  createdAt: z.iso.datetime(),
})

export const CreatedFeedSchema = FeedViewSchema.extend({
  url: z
    .string()
    .describe(
      'The feed, `{PUBLIC_URL}/feeds/{token}.atom`: readable without a login by whoever has it, so shown in this response only. Revoke it to stop it.',
    ),
})

export type FeedView = z.infer<typeof FeedViewSchema>
export type CreatedFeedView = z.infer<typeof CreatedFeedSchema>

/** Working feeds an account may have: a reader per topic and brief, with room; revoked ones do not count. */
export const MAX_FEEDS_PER_ACCOUNT = 100

/** What a feed follows, as its owner sees it (never its token). */
export type Feed = {
  id: string
  /** The topic's name, as it was when the feed was made. */
  topic: string
  topicId: string | null
  seriesId: string | null
  createdAt: Date
}

export function presentFeed(feed: Feed): FeedView {
  return { ...feed, createdAt: feed.createdAt.toISOString() }
}
