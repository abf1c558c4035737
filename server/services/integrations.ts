// Slack and GitHub: a webhook received (recorded once, its job queued), a mention acted on (a run
// admitted like any other, or a reply saying why not), a message delivered, and old receipts purged.
// The operator links a workspace or repository to an account through chat-links.ts.

import type { z } from 'zod'
import { handleGithubMention, type IssueCommentEventSchema, receiveGithubComment } from '#server/chat/github/events.ts'
import type { MentionDeps } from '#server/chat/mention-run.ts'
import { handleSlackMention, receiveSlackEvent, type SlackEventCallbackSchema } from '#server/chat/slack/events.ts'
import type { GithubMentionJob, SlackMentionJob } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import { type DeliverDeps, deliver, type IntegrationSettings } from '#server/notify/deliver.ts'
import { sweepDeliveries } from '#server/notify/delivery-sweep.ts'
import type { Mailer } from '#server/notify/email/mailer.ts'
import type { WebhookSettings } from '#server/notify/webhooks/send.ts'
import { deleteReceiptsOlderThan } from '#server/repositories/webhook-receipts.ts'
import type { AdmissionDeps } from '#server/research/admission.ts'

export type IntegrationServiceDeps = {
  /** What starting a run needs (the one admission, composed in server/services.ts): mentions start runs. */
  admission: AdmissionDeps
  log: Logger
  settings: IntegrationSettings
  mailer: Mailer | undefined
  /** How outbound webhook events are delivered (the same `deliver` job). */
  webhooks: WebhookSettings
}

export function createIntegrationService(deps: IntegrationServiceDeps) {
  const { admission } = deps
  const { db, ring } = admission.memory
  const received = { db, jobs: admission.jobs, ring }
  const mentions: MentionDeps = { ...admission, log: deps.log }
  const delivering: DeliverDeps = {
    db,
    ring,
    jobs: admission.jobs,
    log: deps.log,
    settings: deps.settings,
    mailer: deps.mailer,
    webhooks: deps.webhooks,
  }
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
    /** The delivery job: posts a message, retrying within its limits. */
    deliver: (deliveryId: string) => deliver(delivering, deliveryId),
    /** The sweep cron: pending deliveries whose job gave up are queued again, or failed at the limit. */
    sweepDeliveries: () => sweepDeliveries(delivering),
    /** Receipts older than `before`; how many went. */
    purgeReceipts: (before: Date) => deleteReceiptsOlderThan(db, before),
  }
}

export type IntegrationService = ReturnType<typeof createIntegrationService>
