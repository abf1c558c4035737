// The `deliver` job: posts what a delivery row owes, part by part, remembering how many parts went
// out so a retry never posts one twice. A rate limit waits as long as the platform asked (Retry-After)
// by sending the job again with startAfter; other passing failures back off; a refusal is final.
import type { Db } from '#db/database.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import { chatDelivery, type DeliveryRow } from '#server/notify/deliveries.ts'
import { afterFailedAttempt, sendDeliveryLater } from '#server/notify/delivery-attempts.ts'
import { DeliveryError } from '#server/notify/delivery-error.ts'
import { deliverEmail } from '#server/notify/email/deliver-email.ts'
import type { Mailer } from '#server/notify/email/mailer.ts'
import type { UnsubscribeTokens } from '#server/notify/email/tokens.ts'
import { postIssueComment } from '#server/notify/github/client.ts'
import { noticeMessage, resultMessage, startedMessage } from '#server/notify/messages.ts'
import {
  type Deliveries,
  markPartsSent,
  markSent,
  startedDeliveryStatus,
} from '#server/notify/repository/deliveries.ts'
import type { SlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import type { WebhookSecrets } from '#server/notify/repository/webhook-endpoints.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import { postSlackMessage } from '#server/notify/slack/client.ts'
import { deliverWebhookEvent, type WebhookSettings } from '#server/notify/webhooks/send.ts'

export type DeliverySettings = {
  publicUrl: string
  slackApiUrl: string
  githubApiUrl: string
  githubToken: string | undefined
  recurringIntervalSeconds: number
  timeoutMs: number
}

export type DeliverDeps = {
  db: Db
  /** The deliveries' sealed notices, opened and sealed at the repository. */
  deliveries: Deliveries
  /** The Slack workspaces' bot tokens, opened at the repository. */
  workspaces: SlackWorkspaces
  /** The webhook signing secrets, opened at the repository. */
  secrets: WebhookSecrets
  /** The run a message is about (the runs module's; a port). */
  runs: RunsToTell
  unsubscribeTokens: UnsubscribeTokens
  jobs: Jobs
  log: Logger
  settings: DeliverySettings
  /** SMTP_URL's; undefined when email is off. */
  mailer: Mailer | undefined
  webhooks: WebhookSettings
}

/** A result waits this long, as often as needed, for its run's "researching" reply to go first. */
const ORDER_WAIT_SECONDS = 2

export async function deliver(deps: DeliverDeps, deliveryId: string): Promise<void> {
  const record = await deps.deliveries.find(deps.db, deliveryId)
  if (!record) return
  if (record.channel === 'email') return deliverEmail(deps, record)
  if (record.channel === 'webhook') return deliverWebhookEvent({ ...deps, settings: deps.webhooks }, record)
  const delivery = chatDelivery(record)
  if (delivery.status !== 'pending') return
  if (delivery.kind === 'result' && delivery.runId) {
    if ((await startedDeliveryStatus(deps.db, delivery.runId)) === 'pending') {
      return sendDeliveryLater(deps.jobs, deliveryId, ORDER_WAIT_SECONDS)
    }
  }
  try {
    const parts = await compose(deps, delivery)
    const post = await poster(deps, delivery)
    for (let part = delivery.partsSent; part < parts.length; part++) {
      await post(parts[part] as string)
      await markPartsSent(deps.db, deliveryId, part + 1)
    }
    await markSent(deps.db, deliveryId)
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error // ours, not the platform's: pg-boss retries the job
    await afterFailedAttempt(deps, delivery, error)
  }
}

async function compose(deps: DeliverDeps, delivery: DeliveryRow): Promise<string[]> {
  if (delivery.kind === 'notice') return noticeMessage(delivery.channel, delivery.notice ?? '')
  const run = delivery.runId ? await deps.runs.view(deps.db, delivery.runId, deps.settings) : undefined
  if (!run) throw new DeliveryError('the run no longer exists', 'never')
  const context = {
    publicUrl: deps.settings.publicUrl,
    recurringIntervalSeconds: deps.settings.recurringIntervalSeconds,
  }
  return delivery.kind === 'started'
    ? startedMessage(delivery.channel, run, context)
    : resultMessage(delivery.channel, run, context)
}

async function poster(deps: DeliverDeps, delivery: DeliveryRow): Promise<(text: string) => Promise<unknown>> {
  const { settings } = deps
  if (delivery.channel === 'slack') {
    const { target } = delivery
    const token = await deps.workspaces.botToken(deps.db, target.teamId)
    if (!token) throw new DeliveryError(`Slack workspace ${target.teamId} is no longer linked`, 'never')
    const options = { apiUrl: settings.slackApiUrl, token, timeoutMs: settings.timeoutMs }
    return (text) => postSlackMessage(options, { channel: target.channel, threadTs: target.threadTs, text })
  }
  const { target } = delivery
  if (!settings.githubToken) throw new DeliveryError('GITHUB_TOKEN is not set', 'never')
  const options = { apiUrl: settings.githubApiUrl, token: settings.githubToken, timeoutMs: settings.timeoutMs }
  return (body) => postIssueComment(options, { repo: target.repo, issueNumber: target.issueNumber, body })
}
