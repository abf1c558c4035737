// Slack and GitHub mentions in: a webhook received (recorded once, its job queued), a mention acted
// on (a run admitted like any other, or a reply saying why not), and old receipts purged. The
// operator links a workspace or repository to an account through chat-links.ts; what is said back
// is delivered by deliveries.ts.
import type { z } from 'zod'
import { handleGithubMention, type IssueCommentEventSchema, receiveGithubComment } from '#server/chat/github/events.ts'
import type { MentionDeps } from '#server/chat/mention-run.ts'
import { handleSlackMention, receiveSlackEvent, type SlackEventCallbackSchema } from '#server/chat/slack/events.ts'
import type { GithubMentionJob, SlackMentionJob } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import { deleteReceiptsOlderThan } from '#server/repositories/webhook-receipts.ts'
import type { AdmissionDeps } from '#server/research/admission.ts'

export type ChatServiceDeps = {
  /** What starting a run needs (the one admission, composed in server/services.ts): mentions start runs. */
  admission: AdmissionDeps
  log: Logger
}

export function createChatService(deps: ChatServiceDeps) {
  const { admission } = deps
  const { db, ring } = admission.memory
  const received = { db, jobs: admission.jobs, ring }
  const mentions: MentionDeps = { ...admission, log: deps.log }
  return {
    slack: {
      /** A verified Events API callback: an app mention is recorded once and its job queued. */
      receive: (envelope: z.infer<typeof SlackEventCallbackSchema>) => receiveSlackEvent(received, envelope),
      actOnMention: (job: SlackMentionJob) => handleSlackMention(mentions, job),
    },
    github: {
      /** A verified issue_comment delivery: a "@sextant research" comment is recorded once and its job queued. */
      receive: (deliveryId: string, comment: z.infer<typeof IssueCommentEventSchema>) =>
        receiveGithubComment(received, deliveryId, comment),
      actOnMention: (job: GithubMentionJob) => handleGithubMention(mentions, job),
    },
    /** Receipts older than `before`; how many went. */
    purgeReceipts: (before: Date) => deleteReceiptsOlderThan(db, before),
  }
}

export type ChatService = ReturnType<typeof createChatService>
