// The words of what Sextant sends out (deliveries to chat, webhooks and email) and of the chat
// services it hears from, written once for their tables, the API and the pages.
import { z } from 'zod'

/** The chat services that mention Sextant and get their answer in a thread or on a pull request. */
export const CHAT_CHANNELS = ['slack', 'github'] as const
export type ChatChannel = (typeof CHAT_CHANNELS)[number]

/** Where the answer to a mention goes: its Slack thread, or its pull request or issue. */
export const SlackTargetSchema = z.object({ teamId: z.string(), channel: z.string(), threadTs: z.string() })
export const GithubTargetSchema = z.object({ repo: z.string(), issueNumber: z.number().int().positive() })
export type SlackTarget = z.infer<typeof SlackTargetSchema>
export type GithubTarget = z.infer<typeof GithubTargetSchema>
export type Destination = { channel: 'slack'; target: SlackTarget } | { channel: 'github'; target: GithubTarget }

export const DELIVERY_CHANNELS = [...CHAT_CHANNELS, 'webhook', 'email'] as const
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number]

export const DELIVERY_KINDS = ['started', 'result', 'notice', 'event', 'digest'] as const
export type DeliveryKind = (typeof DELIVERY_KINDS)[number]

/** A reply in a Slack thread or on a pull request: a run's "started" (then its result), or a notice. */
export type ChatReply = Destination & { runId: string | null; kind: DeliveryKind; notice?: string }

/** A delivery waits until it is sent, or fails when its retries are spent. */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/** The events an account's webhook endpoints may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['run.completed', 'run.failed', 'series.changed'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** An endpoint is disabled after WEBHOOK_DISABLE_AFTER consecutive failed attempts. */
export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number]
