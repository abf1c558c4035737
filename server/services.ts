// The service layer: what every surface (REST routes, MCP tools, pages, webhooks, job handlers, the
// CLI) calls. Each service is plain functions closed over their dependencies, composed here once;
// no surface touches the database, SQL or a provider. A newcomer's path for a behaviour is one hop
// per layer: surface (server/http, server/mcp, app/routes, server/jobs/definitions.ts) -> service
// (server/services/) -> domain and storage (server/research, server/topics, server/accounts, ...).
import type { Db } from '#db/database.ts'
import type { ApiKeyVerifier } from '#server/accounts/api-keys.ts'
import type { LoginThrottle } from '#server/accounts/login-throttle.ts'
import { lockAccount } from '#server/accounts/repository/accounts.ts'
import { createAccountService, createKeyService } from '#server/accounts/service.ts'
import { createReceipts } from '#server/chat/repository/receipts.ts'
import { createChatService } from '#server/chat/service.ts'
import { type Config, modelPrices } from '#server/config.ts'
import { deriveKeys } from '#server/crypto/derived-keys.ts'
import type { KeyRing } from '#server/crypto/key-ring.ts'
import { closeStreamsWhenEnded } from '#server/events/ended-streams.ts'
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import { purgeExpiredSlices } from '#server/limits/limiter.ts'
import type { Limits } from '#server/limits/policies.ts'
import type { Logger } from '#server/logger.ts'
import { UNSUBSCRIBE_KEYS } from '#server/notify/email/tokens.ts'
import { createNotifyTables } from '#server/notify/repository/sealed-tables.ts'
import { createNotifyService, type WebhookSettings } from '#server/notify/service.ts'
import { resolveAll } from '#server/providers/reader/page-reader.ts'
import type { EngineDeps } from '#server/research/pipeline.ts'
import type { AdmissionDeps } from '#server/runs/admission.ts'
import { endRun } from '#server/runs/end.ts'
import { runEventLog } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createRunSeals } from '#server/runs/repository/runs.ts'
import { createRunService, runsOfSeries, runsToTell } from '#server/runs/service.ts'
import type { RunDeadlines } from '#server/runs/start.ts'
import { createSeriesBriefs } from '#server/series/repository.ts'
import { createSeriesForRuns, createSeriesService } from '#server/series/service.ts'
import { createIdempotencyService } from '#server/services/idempotency.ts'
import { createLiveService } from '#server/services/live.ts'
import { createCorpusService, createHealthService } from '#server/services/operations.ts'
import { createTopicMemoryForRuns, createTopicService } from '#server/topics/service.ts'
import type { MemoryContext } from '#server/topics/store.ts'

/** What the services are made of: the process's infrastructure, created once by server/start.ts. */
export type Infra = {
  config: Config
  log: Logger
  db: Db
  jobs: Jobs
  /** The memory key ring: each module's repositories build their sealed columns' codecs from it. */
  ring: KeyRing
  memory: MemoryContext
  limits: Limits
  apiKeys: ApiKeyVerifier
  logins: LoginThrottle
  /** The engine's providers (search, the page reader, the model); workers run the engine. */
  providers: Pick<EngineDeps, 'search' | 'reader' | 'model'>
}

export function createServices(infra: Infra) {
  const { config, log, db, jobs, ring, memory, limits } = infra
  const deadlines: RunDeadlines = {
    quickSeconds: config.RUN_DEADLINE_QUICK_SECONDS,
    deepSeconds: config.RUN_DEADLINE_DEEP_SECONDS,
    queueSeconds: config.RUN_QUEUE_TIMEOUT,
  }
  const webhookRules: WebhookSettings = {
    allowHttp: config.WEBHOOK_ALLOW_HTTP,
    allowHosts: new Set(config.WEBHOOK_ALLOW_HOSTS),
    resolve: resolveAll,
    retryBaseSeconds: config.WEBHOOK_RETRY_BASE,
    retryMaxSeconds: config.WEBHOOK_RETRY_MAX,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    disableAfter: config.WEBHOOK_DISABLE_AFTER,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    userAgent: `Sextant-Webhooks/1.0 (+${config.PUBLIC_URL})`,
  }
  // The series' and the runs' sealed columns, opened at their repositories (decision 064).
  const seriesBriefs = createSeriesBriefs(ring)
  const runSeals = createRunSeals(ring)
  // What runs ask of their series (a run's start and end, the run views, a feed of a series).
  const seriesForRuns = createSeriesForRuns({
    db,
    jobs,
    briefs: seriesBriefs,
    runs: runsOfSeries,
    intervalSeconds: config.RECURRING_INTERVAL,
    spreadSeconds: config.SCHEDULE_SPREAD,
  })
  const topics = createTopicService({ memory, publicUrl: config.PUBLIC_URL })
  const notify = createNotifyService({
    db,
    tables: createNotifyTables(ring),
    unsubscribeKeys: deriveKeys(ring, UNSUBSCRIBE_KEYS),
    findTopic: topics.find,
    runs: runsToTell(runSeals),
    findSeries: seriesForRuns.find,
    lockAccount,
    jobs,
    log,
    limits,
    publicUrl: config.PUBLIC_URL,
    delivery: {
      slackApiUrl: config.SLACK_API_URL,
      githubApiUrl: config.GITHUB_API_URL,
      githubToken: config.GITHUB_TOKEN,
      recurringIntervalSeconds: config.RECURRING_INTERVAL,
      timeoutMs: config.PROVIDER_TIMEOUT_SECONDS * 1000,
    },
    webhooks: webhookRules,
    // Email digests and confirmations go over SMTP_URL; without it, email is off.
    smtp: config.SMTP_URL
      ? { url: config.SMTP_URL, from: config.EMAIL_FROM, timeoutMs: config.PROVIDER_TIMEOUT_SECONDS * 1000 }
      : undefined,
    storageBlocked: () => jobs.blocked(),
  })
  const endDeps = {
    db,
    jobs,
    seals: runSeals,
    series: seriesForRuns,
    // In the transaction that ends the run: what a run's end owes, channel by channel.
    onEnded: notify.whenEnded,
  }
  const ending: EngineDeps['endRun'] = (runId, outcome, known) => endRun(endDeps, runId, outcome, known)
  // Starting a run, the same from every service that starts one (runs, run now, mentions).
  const admission: AdmissionDeps = {
    db,
    jobs,
    // What a run asks of its topic's memory (the topics module's; the engine's port RunMemory).
    memory: createTopicMemoryForRuns(memory),
    deadlines,
    series: seriesForRuns,
    runSeals,
    limits,
    scheduleMinSeconds: config.SCHEDULE_MIN_INTERVAL,
    webhookUrlProblem: notify.webhooks.urlProblem,
  }
  const accounts = createAccountService({ db })
  const runs = createRunService({
    admission,
    ensureVisitor: accounts.ensureVisitor,
    runsPerAccount: config.RUNS_PER_ACCOUNT,
    publicUrl: config.PUBLIC_URL,
    endRun: ending,
    series: seriesForRuns,
    engine: {
      ...infra.providers,
      log,
      providerTimeoutMs: config.PROVIDER_TIMEOUT_SECONDS * 1000,
      maxTokens: config.RUN_MAX_TOKENS,
      prices: modelPrices(config),
    },
  })
  return {
    config,
    log,
    deadlines,
    /** The limiters of spec 6 (runs, the demo budget, MCP, mentions, logins), shared by every process. */
    limits,
    /** Drops the rate limits' slices that stopped counting (daily). */
    purgeExpiredLimits: () => purgeExpiredSlices(db),
    /** Throttles logins and sign-ups (per address and per account). */
    logins: infra.logins,
    runs,
    series: createSeriesService({
      db,
      jobs,
      log,
      runs,
      scheduleMinSeconds: config.SCHEDULE_MIN_INTERVAL,
      briefs: seriesBriefs,
      runsOfSeries,
      intervalSeconds: config.RECURRING_INTERVAL,
      spreadSeconds: config.SCHEDULE_SPREAD,
      emailEnabled: notify.emailEnabled,
    }),
    email: notify.email,
    topics,
    accounts,
    keys: createKeyService({ db, verifier: infra.apiKeys, maxActive: config.API_KEYS_PER_ACCOUNT }),
    /** Slack and GitHub mentions in. */
    chat: createChatService({
      db,
      jobs,
      runs,
      log,
      receipts: createReceipts(ring),
      replies: notify.replies,
      workspaces: notify.workspaces,
      secrets: { slack: config.SLACK_SIGNING_SECRET, github: config.GITHUB_WEBHOOK_SECRET },
    }),
    /** What the deliver job sends: replies, webhook events, email. */
    deliveries: notify.deliveries,
    corpus: createCorpusService({ db }),
    health: createHealthService({ db, jobs }),
    idempotency: createIdempotencyService({ db }),
    feeds: notify.feeds,
    /** Outbound webhooks: the account's endpoints and signing secrets. */
    webhooks: notify.webhooks,
  }
}

export type Services = ReturnType<typeof createServices>

/**
 * The web process's services: the shared ones, plus live progress over its event hub, and the
 * account local development auth signs in as (when there is one: see server/accounts/provision.ts).
 * Closes a session's or key's streams here when any process announces its end.
 */
export function createWebServices(
  infra: Pick<Infra, 'db' | 'ring' | 'log'>,
  services: Services,
  web: { hub: EventHub; streams: OpenStreams; localAccountId: string | undefined },
) {
  const { hub, streams } = web
  closeStreamsWhenEnded({
    hub,
    streams,
    principals: { isActive: services.accounts.isStreamPrincipalActive, forgetKey: services.keys.forget },
    log: infra.log,
  })
  return {
    ...services,
    live: createLiveService({
      hub,
      streams,
      events: runEventLog(infra.db, eventDataColumn(infra.ring)),
      runs: services.runs,
    }),
    localAccountId: web.localAccountId,
  }
}

export type WebServices = ReturnType<typeof createWebServices>
