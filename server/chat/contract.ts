// What the rest of the server may use of the chat module besides its service (decision 063): the
// inbound Slack and GitHub payloads as the webhook routes check them (after the service has checked
// their signatures), and what Slack and GitHub are told about an event they delivered.
import { z } from 'zod'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'

export const WebhookOutcomeSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'ignored']).describe('duplicate: a retry of a delivery already received.'),
  reason: z.string().optional().describe('Why the event was ignored.'),
})
export type WebhookOutcome = z.infer<typeof WebhookOutcomeSchema>

/** Slack's url_verification handshake: the challenge, echoed. */
export const SlackChallengeSchema = z.object({ challenge: z.string() })

export const SlackUrlVerificationSchema = z.object({
  type: z.literal('url_verification'),
  challenge: z.string().max(500),
})

export const SlackEventCallbackSchema = z.object({
  type: z.literal('event_callback'),
  // What is stored (the receipt, the job) must be text Postgres can hold.
  team_id: z.string().min(1).max(64).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  event_id: z.string().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
  event: z.looseObject({ type: z.string() }),
})

/** A GitHub repository's full name, owner/name. */
export const REPO_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/

export const IssueCommentEventSchema = z.object({
  action: z.string(),
  issue: z.object({ number: z.number().int().positive(), pull_request: z.unknown().optional() }),
  comment: z.object({
    body: z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE).nullable(),
    user: z.object({ login: z.string(), type: z.string() }),
  }),
  repository: z.object({ full_name: z.string().regex(REPO_NAME) }),
})
