// The chat module's service: Slack and GitHub mentions in. A webhook received (recorded once, its job
// queued), a mention acted on (a run admitted like any other, or a reply saying why not), old
// receipts purged; and, for the operator's CLI, which account a Slack workspace's mentions or a
// GitHub repository's "@sextant research" comments run as. What is said back is delivered by
// server/notify/service/deliveries.ts.
import type { z } from 'zod'
import type { Db } from '#db/database.ts'
import type { IssueCommentEventSchema, SlackEventCallbackSchema } from '#server/chat/contract.ts'
import { handleGithubMention, receiveGithubComment } from '#server/chat/github/events.ts'
import { linkGithubRepository } from '#server/chat/github/repositories.ts'
import { verifyGithubSignature } from '#server/chat/github/verify.ts'
import type { MentionDeps, Replies, SlackWorkspaces } from '#server/chat/mention-run.ts'
import type { Receipts } from '#server/chat/repository/receipts.ts'
import { handleSlackMention, receiveSlackEvent } from '#server/chat/slack/events.ts'
import { type SignatureCheck, verifySlackSignature } from '#server/chat/slack/verify.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { GithubMentionJob, SlackMentionJob } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import type { RunService } from '#server/runs/service.ts'

export type ChatServiceDeps = {
  db: Db
  jobs: Jobs
  /** Mentions start runs (the runs module's service). */
  runs: Pick<RunService, 'start'>
  log: Logger
  /** SLACK_SIGNING_SECRET and GITHUB_WEBHOOK_SECRET: without one, that platform's webhook is not set up. */
  secrets: { slack: string | undefined; github: string | undefined }
  /** The webhook_receipts table, its sealed text opened at its boundary. */
  receipts: Receipts
  /** What is said back (notify's): replies queued in the transaction that acts on a mention. */
  replies: Replies
  /** Which account a Slack workspace's mentions run as (notify holds the table, for the bot token). */
  workspaces: SlackWorkspaces
}

/** A webhook request as it came, for its signature's check before anything of it is parsed. */
export type SignedRequest = { body: Buffer; header: (name: string) => string | undefined }

export function createChatService(deps: ChatServiceDeps) {
  const { db, jobs, receipts } = deps
  const received = { db, jobs, receipts }
  const mentions: MentionDeps = {
    db,
    jobs,
    startRun: deps.runs.start,
    log: deps.log,
    receipts,
    replies: deps.replies,
    workspaces: deps.workspaces,
  }
  return {
    slack: {
      /**
       * Slack's signature of the request (v0, its timestamp within five minutes); undefined when
       * SLACK_SIGNING_SECRET is not set.
       */
      verify: signatureCheck(deps.secrets.slack, (secret, request) =>
        verifySlackSignature({
          secret,
          body: request.body,
          timestamp: request.header('x-slack-request-timestamp'),
          signature: request.header('x-slack-signature'),
          now: new Date(),
        }),
      ),
      /** A verified Events API callback: an app mention is recorded once and its job queued. */
      receive: (envelope: z.infer<typeof SlackEventCallbackSchema>) => receiveSlackEvent(received, envelope),
      actOnMention: (job: SlackMentionJob) => handleSlackMention(mentions, job),
    },
    github: {
      /** GitHub's signature of the request (X-Hub-Signature-256); undefined when GITHUB_WEBHOOK_SECRET is not set. */
      verify: signatureCheck(deps.secrets.github, (secret, request) =>
        verifyGithubSignature({ secret, body: request.body, signature: request.header('x-hub-signature-256') }),
      ),
      /** A verified issue_comment delivery: a "@sextant research" comment is recorded once and its job queued. */
      receive: (deliveryId: string, comment: z.infer<typeof IssueCommentEventSchema>) =>
        receiveGithubComment(received, deliveryId, comment),
      actOnMention: (job: GithubMentionJob) => handleGithubMention(mentions, job),
    },
    /** Receipts older than `before`; how many went. */
    purgeReceipts: (before: Date) => receipts.deleteOlderThan(db, before),
  }
}

export type ChatService = ReturnType<typeof createChatService>

function signatureCheck(
  secret: string | undefined,
  check: (secret: string, request: SignedRequest) => SignatureCheck,
): ((request: SignedRequest) => SignatureCheck) | undefined {
  return secret ? (request) => check(secret, request) : undefined
}

export type ChatLinkServiceDeps = {
  db: Db
  /**
   * Slack workspaces, whose key ring is loaded only when a bot token is sealed: loading it may write
   * a new key file, or fail in production without MEMORY_ENCRYPTION_KEYS, and linking a repository
   * seals nothing.
   */
  workspaces: SlackWorkspaces
}

export function createChatLinkService(deps: ChatLinkServiceDeps) {
  const { db } = deps
  return {
    /** Links a workspace to an account (again: replaces the account and token); the bot token is sealed. */
    linkSlackWorkspace: (input: { teamId: string; accountId: string; botToken: string }): Promise<void> =>
      deps.workspaces.link(db, input),
    linkGithubRepository: (input: { repo: string; accountId: string }): Promise<void> =>
      linkGithubRepository(db, input),
  }
}

export type ChatLinkService = ReturnType<typeof createChatLinkService>
