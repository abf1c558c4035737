// The words of what Sextant sends out (deliveries to chat, webhooks and email) and of the chat
// services it hears from, written once for their tables, the API and the pages.

/** The chat services that mention Sextant and get their answer in a thread or on a pull request. */
export const CHAT_CHANNELS = ['slack', 'github'] as const
export type ChatChannel = (typeof CHAT_CHANNELS)[number]

export const DELIVERY_CHANNELS = [...CHAT_CHANNELS, 'webhook', 'email'] as const
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number]

export const DELIVERY_KINDS = ['started', 'result', 'notice', 'event', 'digest'] as const
export type DeliveryKind = (typeof DELIVERY_KINDS)[number]

/** A delivery waits until it is sent, or fails when its retries are spent. */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** The events an account's webhook endpoints may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['run.completed', 'run.failed', 'series.changed'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** An endpoint is disabled after WEBHOOK_DISABLE_AFTER consecutive failed attempts. */
export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number]
