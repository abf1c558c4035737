// Slack Events API: what the webhook accepts (an app_mention from a person, once per event_id) and
// what the `slack.mention` job then does with it. The webhook only records and enqueues, so it
// answers well within Slack's three seconds; the job does the rest. The mention's words wait sealed
// on the receipt (receipts.ts): the job, which pg-boss keeps after it ran, holds only where to reply.
import { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { SlackEventCallbackSchema, WebhookOutcome } from '#server/chat/contract.ts'
import { slackMentionText } from '#server/chat/mention.ts'
import { actOnMention, type MentionDeps } from '#server/chat/mention-run.ts'
import type { Receipts } from '#server/chat/repository/receipts.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { SLACK_MENTION, type SlackMentionJob } from '#server/jobs/queues.ts'
import { isStorableText } from '#server/vocabulary/storable-text.ts'

const AppMentionSchema = z.object({
  type: z.literal('app_mention'),
  text: z.string().max(40_000).refine(isStorableText),
  ts: z.string().min(1).max(64).refine(isStorableText),
  channel: z.string().min(1).max(64).refine(isStorableText),
  thread_ts: z.string().min(1).max(64).refine(isStorableText).optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
})

export type { WebhookOutcome }

export async function receiveSlackEvent(
  deps: { db: Db; jobs: Jobs; receipts: Receipts },
  envelope: z.infer<typeof SlackEventCallbackSchema>,
): Promise<WebhookOutcome> {
  if (envelope.event.type !== 'app_mention') return { status: 'ignored', reason: `event ${envelope.event.type}` }
  const parsed = AppMentionSchema.safeParse(envelope.event)
  if (!parsed.success) return { status: 'ignored', reason: 'app_mention without text, ts or channel' }
  const event = parsed.data
  // Another bot (or this one) mentioning the app must not start work: loops and spam.
  if (event.bot_id || event.subtype === 'bot_message') return { status: 'ignored', reason: 'bot message' }
  const job: SlackMentionJob = {
    eventId: envelope.event_id,
    teamId: envelope.team_id,
    channel: event.channel,
    // Reply in the mention's thread, or start one under the mention.
    threadTs: event.thread_ts ?? event.ts,
  }
  const accepted = await deps.jobs.transaction(deps.db, async (trx) => {
    if (!(await deps.receipts.record(trx, 'slack', envelope.event_id, slackMentionText(event.text)))) return false
    await deps.jobs.send(SLACK_MENTION, job, { trx })
    return true
  })
  if (!accepted) return { status: 'duplicate' }
  return { status: 'accepted' }
}

export async function handleSlackMention(deps: MentionDeps, job: SlackMentionJob): Promise<void> {
  await actOnMention(deps, {
    provider: 'slack',
    deliveryId: job.eventId,
    destination: { channel: 'slack', target: { teamId: job.teamId, channel: job.channel, threadTs: job.threadTs } },
    place: `slack:${job.teamId}`,
    findAccount: (db) => deps.workspaces.account(db, job.teamId),
    // Without a linked workspace there is no bot token to answer with.
    unlinkedNotice: undefined,
  })
}
