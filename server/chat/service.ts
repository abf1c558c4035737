// The chat module's service: Slack and GitHub mentions in. A webhook received (recorded once, its job
// queued), a mention acted on (a run admitted like any other, or a reply saying why not), old
// receipts purged; and, for the operator's CLI, which account a Slack workspace's mentions or a
// GitHub repository's "@sextant research" comments run as. What is said back is delivered by
// server/services/deliveries.ts.
import type { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { IssueCommentEventSchema, SlackEventCallbackSchema } from '#server/chat/contract.ts'
import { handleGithubMention, receiveGithubComment } from '#server/chat/github/events.ts'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import type { MentionDeps } from '#server/chat/mention-run.ts'
import { deleteReceiptsOlderThan } from '#server/chat/repository/receipts.ts'
import { handleSlackMention, receiveSlackEvent } from '#server/chat/slack/events.ts'
import type { GithubMentionJob, SlackMentionJob } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import type { KeyRing } from '#server/memory/crypto.ts'
import { linkSlackWorkspace } from '#server/notify/slack/workspaces.ts'
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

export type ChatLinkServiceDeps = {
  db: Db
  /**
   * The memory key ring, loaded only when a bot token is sealed: loading it may write a new key
   * file, or fail in production without MEMORY_ENCRYPTION_KEYS, and linking a repository seals nothing.
   */
  ring: () => KeyRing
}

export function createChatLinkService(deps: ChatLinkServiceDeps) {
  const { db } = deps
  return {
    /** Links a workspace to an account (again: replaces the account and token); the bot token is sealed. */
    linkSlackWorkspace: (input: { teamId: string; accountId: string; botToken: string }): Promise<void> =>
      linkSlackWorkspace(db, deps.ring(), input),
    linkGithubRepository: (input: { repo: string; accountId: string }): Promise<void> =>
      linkGithubRepository(db, input),
  }
}

export type ChatLinkService = ReturnType<typeof createChatLinkService>
