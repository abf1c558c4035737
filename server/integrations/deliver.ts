// The `deliver` job: posts what a delivery row owes, part by part, remembering how many parts went
// out so a retry never posts one twice. A rate limit waits as long as the platform asked (Retry-After)
// by sending the job again with startAfter; other passing failures back off; a refusal is final.
import type { Db } from '#db/database.ts'
import { type DeliveryRow, getDelivery } from '#server/integrations/deliveries.ts'
import { DeliveryError } from '#server/integrations/delivery-error.ts'
import { postIssueComment } from '#server/integrations/github/client.ts'
import { noticeMessage, resultMessage, startedMessage } from '#server/integrations/messages.ts'
import { postSlackMessage } from '#server/integrations/slack/client.ts'
import { slackBotToken } from '#server/integrations/slack/workspaces.ts'
import { deliverWebhookEvent, type WebhookSettings } from '#server/integrations/webhooks/send.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { DELIVER } from '#server/jobs/queues.ts'
import type { Logger } from '#server/logger.ts'
import type { KeyRing } from '#server/memory/crypto.ts'
import {
  findDelivery,
  markPartsSent,
  markSent,
  recordFailedAttempt,
  startedDeliveryStatus,
} from '#server/repositories/deliveries.ts'
import { getRun } from '#server/repositories/runs.ts'
import { viewRun } from '#server/research/runs.ts'

export type IntegrationSettings = {
  publicUrl: string
  slackApiUrl: string
  githubApiUrl: string
  githubToken: string | undefined
  recurringIntervalSeconds: number
  timeoutMs: number
}

export type DeliverDeps = {
  db: Db
  ring: KeyRing
  jobs: Jobs
  log: Logger
  settings: IntegrationSettings
  webhooks: WebhookSettings
}

const MAX_ATTEMPTS = 8
const MAX_BACKOFF_SECONDS = 15 * 60
/** A result waits this long, as often as needed, for its run's "researching" reply to go first. */
const ORDER_WAIT_SECONDS = 2

export async function deliver(deps: DeliverDeps, deliveryId: string): Promise<void> {
  const record = await findDelivery(deps.db, deliveryId)
  if (record?.channel === 'webhook') return deliverWebhookEvent({ ...deps, settings: deps.webhooks }, record)
  const delivery = await getDelivery(deps.db, deps.ring, deliveryId)
  if (delivery?.status !== 'pending') return
  if (delivery.kind === 'result' && delivery.runId) {
    if ((await startedDeliveryStatus(deps.db, delivery.runId)) === 'pending') {
      return sendLater(deps, deliveryId, ORDER_WAIT_SECONDS)
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
    const attempts = delivery.attempts + 1
    const final = error.retry === 'never' || attempts >= MAX_ATTEMPTS
    await recordFailedAttempt(deps.db, deliveryId, { attempts, error: error.message, final })
    const log = { deliveryId, channel: delivery.channel, kind: delivery.kind, attempts, error: error.message }
    if (final) {
      deps.log.warn(log, 'gave up on a delivery')
      return
    }
    const wait = error.retryAfterSeconds ?? Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** (attempts - 1))
    deps.log.info({ ...log, retryInSeconds: wait }, 'delivery will be retried')
    await sendLater(deps, deliveryId, Math.max(1, wait))
  }
}

async function sendLater(deps: DeliverDeps, deliveryId: string, seconds: number): Promise<void> {
  await deps.jobs.send(DELIVER, { deliveryId }, { startAfter: seconds })
}

async function compose(deps: DeliverDeps, delivery: DeliveryRow): Promise<string[]> {
  if (delivery.kind === 'notice') return noticeMessage(delivery.channel, delivery.notice ?? '')
  const row = delivery.runId ? await getRun(deps.db, delivery.runId) : undefined
  if (!row) throw new DeliveryError('the run no longer exists', 'never')
  const run = viewRun(deps.ring, row, { publicUrl: deps.settings.publicUrl })
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
    const token = await slackBotToken(deps.db, deps.ring, target.teamId)
    if (!token) throw new DeliveryError(`Slack workspace ${target.teamId} is no longer linked`, 'never')
    const options = { apiUrl: settings.slackApiUrl, token, timeoutMs: settings.timeoutMs }
    return (text) => postSlackMessage(options, { channel: target.channel, threadTs: target.threadTs, text })
  }
  const { target } = delivery
  if (!settings.githubToken) throw new DeliveryError('GITHUB_TOKEN is not set', 'never')
  const options = { apiUrl: settings.githubApiUrl, token: settings.githubToken, timeoutMs: settings.timeoutMs }
  return (body) => postIssueComment(options, { repo: target.repo, issueNumber: target.issueNumber, body })
}
