// The notify module's service (decision 063): what Sextant sends out, composed once. Its parts are
// in server/notify/service/: the `deliver` job and its sweep (replies in a Slack thread or on a pull
// request, webhook events, email), an account's webhook endpoints, its email addresses and its feeds.
// Here too: what a run's end owes each channel, queued in the transaction that ends it; and what the
// chat module asks of notify in its own transactions (a reply queued; the Slack workspace whose bot
// token posts it).
import type { Db } from '#db/database.ts'
import type { DerivedKeys } from '#server/crypto/derived-keys.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Limits } from '#server/limits/policies.ts'
import type { Logger } from '#server/logger.ts'
import type { LockAccount } from '#server/notify/account-lock.ts'
import type { DeliverySettings } from '#server/notify/deliver.ts'
import { createDelivery, deliverResultWhenEnded } from '#server/notify/deliveries.ts'
import { emailDigestWhenEnded } from '#server/notify/email/deliveries.ts'
import { createMailer } from '#server/notify/email/mailer.ts'
import { createUnsubscribeTokens } from '#server/notify/email/tokens.ts'
import { recordRunChangesWhenEnded } from '#server/notify/feeds/feeds.ts'
import type { NotifyTables } from '#server/notify/repository/sealed-tables.ts'
import { createSlackWorkspaces } from '#server/notify/repository/slack-workspaces.ts'
import type { RunsToTell } from '#server/notify/runs-to-tell.ts'
import { createDeliveryService } from '#server/notify/service/deliveries.ts'
import { createEmailService } from '#server/notify/service/email.ts'
import { createFeedService, type FindSeries, type FindTopic } from '#server/notify/service/feeds.ts'
import { createWebhookService } from '#server/notify/service/webhooks.ts'
import { deliverWebhooksWhenEnded } from '#server/notify/webhooks/events.ts'
import type { WebhookSettings } from '#server/notify/webhooks/send.ts'
import type { RunEnd } from '#server/runs/contract.ts'
import type { ChatReply } from '#server/vocabulary/notify.ts'

export type { DeliverySettings, WebhookSettings }

export type NotifyDeps = {
  db: Db
  /** The module's tables with sealed columns (built by the composition root from the key ring). */
  tables: NotifyTables
  /** The keys unsubscribe links are signed and checked with (UNSUBSCRIBE_KEYS, derived from the ring). */
  unsubscribeKeys: DerivedKeys
  jobs: Jobs
  log: Logger
  limits: Pick<Limits, 'confirmationsAccount' | 'confirmationsAddress'>
  publicUrl: string
  /** Where replies and results are posted (Slack's and GitHub's APIs), and how long a post may take. */
  delivery: Omit<DeliverySettings, 'publicUrl'>
  webhooks: WebhookSettings
  /** SMTP_URL, EMAIL_FROM and the provider timeout; without it, email is off. */
  smtp: { url: string; from: string; timeoutMs: number } | undefined
  /** Why nothing should be written now (the database's disk is full), as a run's start asks. */
  storageBlocked: () => Promise<string | undefined>
  /** The account's series a feed may follow (the port FindSeries). */
  findSeries: FindSeries
  /** The account's topic a feed may follow (the port FindTopic). */
  findTopic: FindTopic
  /** The runs a message, digest, webhook or feed entry is about (the runs module's; a port). */
  runs: RunsToTell
  /** The account's row held for the caller's transaction, while a cap is counted (the port LockAccount). */
  lockAccount: LockAccount
}

export function createNotifyService(deps: NotifyDeps) {
  const { db, jobs, log, publicUrl } = deps
  // The module's sealed columns, opened and sealed at its repository (decision 064).
  const { deliveries, workspaces, feeds, secrets } = deps.tables
  const unsubscribeTokens = createUnsubscribeTokens(deps.unsubscribeKeys)
  const { runs } = deps
  const mailer = deps.smtp && createMailer(deps.smtp)
  const emailEnabled = mailer !== undefined
  // However a run ends (its worker, the sweeper, a cancel), what it owes is queued with its end: a
  // run from chat owes its result there; the account's webhooks (and a brief's webhookUrl) their
  // events; a series' run worth telling, its email digest; every complete run, the feeds its count
  // of changes.
  const owed = [
    deliverResultWhenEnded(jobs, deliveries),
    deliverWebhooksWhenEnded({ jobs, runs, deliveries, publicUrl }),
    emailDigestWhenEnded(jobs, deliveries, emailEnabled),
    recordRunChangesWhenEnded(),
  ]
  return {
    /** False without SMTP_URL: no email is sent at all. */
    emailEnabled,
    /** What the deliver job sends: replies, webhook events, email; and the sweep of those whose job gave up. */
    deliveries: createDeliveryService({
      db,
      jobs,
      runs,
      unsubscribeTokens,
      deliveries,
      workspaces,
      secrets,
      log,
      settings: { ...deps.delivery, publicUrl },
      mailer,
      webhooks: deps.webhooks,
    }),
    /** Outbound webhooks: the account's endpoints and signing secrets. */
    webhooks: createWebhookService({ db, secrets, rules: deps.webhooks, lockAccount: deps.lockAccount }),
    email: createEmailService({
      db,
      jobs,
      unsubscribeTokens,
      deliveries,
      enabled: emailEnabled,
      limits: deps.limits,
      lockAccount: deps.lockAccount,
    }),
    /** What chat asks of notify in its own transaction (its port, Replies in server/chat/mention-run.ts). */
    replies: {
      /** Queues the reply and its job in the caller's transaction; a run's second "started" is a no-op. */
      queue: (trx: Db, reply: ChatReply): Promise<void> => createDelivery(trx, jobs, deliveries, reply),
    },
    /** Which account a Slack workspace's mentions run as (chat's port, SlackWorkspaces). */
    workspaces,
    feeds: createFeedService({
      db,
      findTopic: deps.findTopic,
      feeds,
      publicUrl,
      storageBlocked: deps.storageBlocked,
      findSeries: deps.findSeries,
      runs,
      lockAccount: deps.lockAccount,
    }),
    /** Each channel's due, in turn, in the transaction that ends the run. */
    whenEnded: async (trx: Db, end: RunEnd): Promise<void> => {
      for (const hook of owed) await hook(trx, end)
    },
  }
}

export type NotifyService = ReturnType<typeof createNotifyService>

/**
 * Slack workspaces: which account a workspace's mentions run as (chat's question: its port,
 * SlackWorkspaces in server/chat/mention-run.ts) and the bot token that posts there (notify's), in
 * one table. The CLI links them with a key ring it loads only when a token is sealed.
 */
export { createSlackWorkspaces }
