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
const RETRIES = { retryLimit: 5, retryDelay: 2, retryBackoff: true }

export function integrationJobs(deps: MentionDeps & DeliverDeps): JobDefinition<unknown>[] {
  return [
    defineJob({
      queue: SLACK_MENTION_QUEUE,
      schema: SlackMentionJobSchema,
      // Sent by whichever process took the webhook: NOTIFY wakes a worker anywhere at once.
      queueOptions: { ...RETRIES, notify: true },
      handler: (job) => handleSlackMention(deps, job),
    }),
    defineJob({
      queue: GITHUB_MENTION_QUEUE,
      schema: GithubMentionJobSchema,
      queueOptions: { ...RETRIES, notify: true },
      handler: (job) => handleGithubMention(deps, job),
    }),
    defineJob({
      queue: DELIVER_QUEUE,
      schema: z.object({ deliveryId: z.uuid() }),
      // Posting waits on Slack and GitHub; a slow one should not hold up the others.
      concurrency: 4,
      // Not a notify queue: those poll only every 30 s, and a delivery waiting out a Retry-After is
      // a delayed job that no NOTIFY announces. Deliveries are sent by workers, which wake their own.
      queueOptions: RETRIES,
      handler: ({ deliveryId }) => deliver(deps, deliveryId),
    }),
  ] as JobDefinition<unknown>[]
}
