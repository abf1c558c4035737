// Every job the app runs: each queue is created at boot; workers run the handlers and schedules.
// A handler is the job system's surface: it parses its data (the definition's zod schema) and makes
// one service call.
import { z } from 'zod'
import { defineJob, type JobDefinition } from '#server/jobs/boss.ts'
import { DELIVER, GITHUB_MENTION, RESEARCH_RUN, SERIES_WAKE, SLACK_MENTION } from '#server/jobs/queues.ts'
import type { Services } from '#server/services.ts'

// Cron queues run often; their finished jobs are not worth keeping for long. pg-boss's scheduler
// sends them, and its NOTIFY wakes a worker: nothing needs to look for them often.
const CRON_RETENTION = { deleteAfterSeconds: 3600, notify: true }
const EVENT_RETENTION_DAYS = 30
// Slack retries for minutes and GitHub redeliveries are by hand, usually within days; a month covers both.
const RECEIPT_RETENTION_DAYS = 30
// A failure of a chat job is ours (the database), not the platform's: retry a few times, soon.
const CHAT_RETRIES = { retryLimit: 5, retryDelay: 2, retryBackoff: true }

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)

export function createJobDefinitions(
  services: Services,
  options: { concurrency: number; runsPerAccount: number },
): JobDefinition<unknown>[] {
  const { runs, series, topics, chat, deliveries, log, deadlines } = services
  return [
    defineJob({
      ...RESEARCH_RUN,
      concurrency: options.concurrency,
      // A fetch passes over an account with RUNS_PER_ACCOUNT runs at work (decision 039); the run's
      // start checks again under a lock, and queues it again if two fetches both took one.
      groupConcurrency: options.runsPerAccount || undefined,
      queueOptions: {
        // A worker that dies stops its heartbeat; the job is retried (and resumes from its
        // checkpoint) on another worker within about half a minute (decision 009). The worker
        // refreshes it every 10 s: a statement each, for as long as the run lasts.
        heartbeatSeconds: 20,
        retryLimit: 5,
        retryDelay: 1,
        retryBackoff: true,
        expireInSeconds: deadlines.deepSeconds + 120,
        notify: true,
      },
      // A run whose job failed on a database error resumes in seconds, not at the 30 s look.
      pollSeconds: 5,
      handler: ({ runId }) => runs.execute(runId),
    }),
    defineJob({
      ...SERIES_WAKE,
      queueOptions: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
      // The next run of a recurring brief: exactly one per slot. Not a notify queue (so looked for
      // every 2 s): a wake is a delayed job, due at its slot with nothing to announce it.
      async handler({ seriesId, slot }) {
        await series.wake(seriesId, slot)
      },
    }),
    defineJob({
      queue: 'runs.sweep',
      schema: z.unknown(),
      schedule: '* * * * *',
      queueOptions: CRON_RETENTION,
      async handler() {
        await runs.sweepOverdue(new Date())
      },
    }),
    defineJob({
      queue: 'memory.purge',
      schema: z.unknown(),
      schedule: '17 3 * * *', // daily, off the hour
      queueOptions: CRON_RETENTION,
      async handler() {
        log.info({ purged: await topics.purgeExpired() }, 'purged expired topic memory')
      },
    }),
    defineJob({
      queue: 'limits.purge',
      schema: z.unknown(),
      schedule: '27 3 * * *',
      queueOptions: CRON_RETENTION,
      // Slices of keys never limited again: a check drops only its own key's.
      async handler() {
        log.info({ purged: await services.purgeExpiredLimits() }, 'purged rate limit slices that stopped counting')
      },
    }),
    defineJob({
      queue: 'events.purge',
      schema: z.unknown(),
      schedule: '37 3 * * *',
      queueOptions: CRON_RETENTION,
      // Run events feed live progress; a month later the report and status say all that matters.
      async handler() {
        log.info({ deleted: await runs.purgeEvents(daysAgo(EVENT_RETENTION_DAYS)) }, 'purged old run events')
      },
    }),
    defineJob({
      queue: 'webhooks.purge',
      schema: z.unknown(),
      schedule: '47 3 * * *',
      queueOptions: CRON_RETENTION,
      async handler() {
        const purged = await chat.purgeReceipts(daysAgo(RECEIPT_RETENTION_DAYS))
        log.info({ purged }, 'purged old webhook receipts')
      },
    }),
    defineJob({
      queue: 'deliveries.sweep',
      schema: z.unknown(),
      schedule: '*/5 * * * *',
      queueOptions: CRON_RETENTION,
      // A delivery whose job gave up (retries spent, expired, gone) is queued again or failed with why.
      async handler() {
        const swept = await deliveries.sweep()
        if (swept.retried + swept.failed > 0) log.info(swept, 'swept stranded deliveries')
      },
    }),
    defineJob({
      ...SLACK_MENTION,
      // Sent by whichever process took the webhook: NOTIFY wakes a worker anywhere at once.
      queueOptions: { ...CHAT_RETRIES, notify: true },
      handler: (job) => chat.slack.actOnMention(job),
    }),
    defineJob({
      ...GITHUB_MENTION,
      queueOptions: { ...CHAT_RETRIES, notify: true },
      handler: (job) => chat.github.actOnMention(job),
    }),
    defineJob({
      ...DELIVER,
      // Posting waits on Slack and GitHub; a slow one should not hold up the others.
      concurrency: 4,
      // Not a notify queue (so looked for every 2 s): deliveries are sent by workers, which wake
      // their own, and a delivery waiting out a Retry-After is a delayed job nothing announces.
      queueOptions: CHAT_RETRIES,
      handler: ({ deliveryId }) => deliveries.deliver(deliveryId),
    }),
  ] as JobDefinition<unknown>[]
}
