// The jobs of the chat integrations: act on a Slack or GitHub mention, and deliver messages.
import { z } from 'zod'
import { type DeliverDeps, deliver } from '#server/integrations/deliver.ts'
import { DELIVER_QUEUE } from '#server/integrations/deliveries.ts'
import {
  GITHUB_MENTION_QUEUE,
  GithubMentionJobSchema,
  handleGithubMention,
} from '#server/integrations/github/events.ts'
import type { MentionDeps } from '#server/integrations/mention-run.ts'
import { handleSlackMention, SLACK_MENTION_QUEUE, SlackMentionJobSchema } from '#server/integrations/slack/events.ts'
import { defineJob, type JobDefinition } from '#server/jobs/boss.ts'

// A failure here is ours (the database), not the platform's: retry a few times, soon.
const RETRIES = { retryLimit: 5, retryDelay: 2, retryBackoff: true, notify: true }

export function integrationJobs(deps: MentionDeps & DeliverDeps): JobDefinition<unknown>[] {
  return [
    defineJob({
      queue: SLACK_MENTION_QUEUE,
      schema: SlackMentionJobSchema,
      queueOptions: RETRIES,
      handler: (job) => handleSlackMention(deps, job),
    }),
    defineJob({
      queue: GITHUB_MENTION_QUEUE,
      schema: GithubMentionJobSchema,
      queueOptions: RETRIES,
      handler: (job) => handleGithubMention(deps, job),
    }),
    defineJob({
      queue: DELIVER_QUEUE,
      schema: z.object({ deliveryId: z.uuid() }),
      // Posting waits on Slack and GitHub; a slow one should not hold up the others.
      concurrency: 4,
      queueOptions: RETRIES,
      handler: ({ deliveryId }) => deliver(deps, deliveryId),
    }),
  ] as JobDefinition<unknown>[]
}
