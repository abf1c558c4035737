// What Slack and GitHub are told about an event they delivered.
import { z } from 'zod'

export const WebhookOutcomeSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'ignored']).describe('duplicate: a retry of a delivery already received.'),
  reason: z.string().optional().describe('Why the event was ignored.'),
})

/** Slack's url_verification handshake: the challenge, echoed. */
export const SlackChallengeSchema = z.object({ challenge: z.string() })

export type WebhookOutcome = z.infer<typeof WebhookOutcomeSchema>
