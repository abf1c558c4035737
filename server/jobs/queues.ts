// Every queue that code sends to, declared once with the zod schema of its data: the sender's data is
// checked against it before it is queued, and the worker parses it again before the handler runs
// (server/jobs/definitions.ts). The cron queues (sweeps and purges) are sent by pg-boss's scheduler
// alone and are declared with their handlers.
import { z } from 'zod'
import type { JobQueue } from '#server/jobs/boss.ts'

/** A run to run (or resume from its checkpoint). */
export const RESEARCH_RUN = {
  queue: 'research.run',
  schema: z.object({ runId: z.uuid() }),
} satisfies JobQueue

/** The next run of a recurring brief: one job per slot, delayed until the slot is due. */
export const SERIES_WAKE = {
  queue: 'series.wake',
  schema: z.object({ seriesId: z.uuid(), slot: z.number().int().min(0) }),
} satisfies JobQueue

/** A Slack app mention, recorded (with its text sealed on the receipt) and waiting to be acted on. */
export const SLACK_MENTION = {
  queue: 'slack.mention',
  schema: z.object({ eventId: z.string(), teamId: z.string(), channel: z.string(), threadTs: z.string() }),
} satisfies JobQueue

/** A "@sextant research" comment on a pull request, recorded and waiting to be acted on. */
export const GITHUB_MENTION = {
  queue: 'github.mention',
  schema: z.object({ deliveryId: z.string(), repo: z.string(), issueNumber: z.number().int().positive() }),
} satisfies JobQueue

/** A message to post to Slack or GitHub (the delivery row says what and where). */
export const DELIVER = {
  queue: 'deliver',
  schema: z.object({ deliveryId: z.uuid() }),
} satisfies JobQueue

export type SlackMentionJob = z.infer<typeof SLACK_MENTION.schema>
export type GithubMentionJob = z.infer<typeof GITHUB_MENTION.schema>
