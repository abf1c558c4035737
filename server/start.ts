// Boots Sextant: database (embedded or DATABASE_URL), migrations, job system, HTTP.
// Returns a handle whose stop() undoes each step in reverse order.
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { createDb, createPool, type Db } from '#db/database.ts'
import { startEmbeddedPostgres } from '#db/embedded.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { createApiKeyVerifier } from '#server/accounts/api-keys.ts'
import { createLoginDevices } from '#server/accounts/login-devices.ts'
import { createLoginThrottle } from '#server/accounts/login-throttle.ts'
import { type Provisioned, provisionAccounts } from '#server/accounts/provision.ts'
import type { Config } from '#server/config.ts'
import { loadInstallationKey } from '#server/crypto/installation-key.ts'
import { type KeyRing, loadKeyRing } from '#server/crypto/key-ring.ts'
import { createEventHub } from '#server/events/hub.ts'
import { createOpenStreams } from '#server/events/open-streams.ts'
import { createHttpApp } from '#server/http/app.ts'
import { ensureAppBuild, projectRoot } from '#server/http/app-build.ts'
import { createDatabaseLiveness } from '#server/http/database-liveness.ts'
import { startHttpServer } from '#server/http/http-server.ts'
import { mountReactRouter } from '#server/http/react-router.ts'
import { type JobDefinition, type Jobs, startJobs } from '#server/jobs/boss.ts'
import { createJobDefinitions } from '#server/jobs/definitions.ts'
import { createLimits } from '#server/limits/policies.ts'
import { createProviderTurns } from '#server/limits/provider-turns.ts'
import type { Logger } from '#server/logger.ts'
import { describeProviders, type ProviderDescription } from '#server/providers/describe.ts'
import { createProviders } from '#server/providers/index.ts'
import { ensureSampleCorpus } from '#server/providers/search/sample-corpus.ts'
import { countCorpusDocuments } from '#server/repositories/corpus-documents.ts'
import { createExtractiveModel } from '#server/research/extractive.ts'
import { runEventLog } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { sealLegacyRows } from '#server/seal-legacy.ts'
import { createServices, createWebServices, type Services } from '#server/services.ts'
import { installedAt } from '#server/settings.ts'
import { topicMemoryColumn } from '#server/topics/repository.ts'
import type { MemoryContext } from '#server/topics/store.ts'
import { loadTopicIndex } from '#server/topics/topic-index.ts'

export type Sextant = {
  /** Base URL of the HTTP server; undefined for a worker-only process. */
  url: string | undefined
  databaseUrl: string
  db: Db
  jobs: Jobs
  /** The memory key ring, loaded at boot (what every sealed column's codec is built from). */
  ring: KeyRing
  memory: MemoryContext
  /** Secrets made at this boot (first start only), for the operator to see once. */
  created: Provisioned['created']
  /** The search and model providers in use, and how to change them, in words. */
  providers: ProviderDescription
  stop: () => Promise<void>
}

const version = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string })
  .version

export async function startSextant(options: {
  config: Config
  log: Logger
  jobs?: JobDefinition<unknown>[]
  /** The argon2 check of API key secrets; tests pass a counting wrapper of the real one. */
  verifyKeySecret?: (hash: string, secret: string) => Promise<boolean>
}): Promise<Sextant> {
  const { config, log } = options
  const cleanups: Array<() => Promise<void>> = []
  async function stop() {
    while (cleanups.length > 0) {
      const cleanup = cleanups.pop()
      await cleanup?.().catch((error) => log.error({ err: error }, 'error while stopping'))
    }
  }

  try {
    // Before any database work: a deployment without its memory keys should fail at once.
    const ring = loadKeyRing(config, log)
    let databaseUrl = config.DATABASE_URL
    let storageProblem: (() => Promise<string | undefined>) | undefined
    if (!databaseUrl) {
      const embedded = await startEmbeddedPostgres({
        dataDir: config.DATA_DIR,
        preferredPort: config.EMBEDDED_PG_PORT,
        settings: config.EMBEDDED_PG_SETTINGS,
        log,
      })
      cleanups.push(embedded.stop)
      databaseUrl = embedded.url
      storageProblem = embedded.storageProblem
    }

    const pool = createPool(databaseUrl, config.DATABASE_POOL_SIZE, log, {
      prepare: config.preparedStatements,
      idleSeconds: config.DATABASE_POOL_IDLE_SECONDS,
    })
    const db = createDb(pool)
    cleanups.push(() => db.destroy())
    const applied = await migrateToLatest(db)
    const since = await installedAt(db)
    log.info(
      { applied, installedAt: since.toISOString(), embedded: config.embeddedDatabase },
      applied.length > 0 ? 'database migrated' : 'database is up to date',
    )
    const topicIndex = await loadTopicIndex((setting, description) =>
      loadInstallationKey(db, ring, setting, description),
    )
    // Before any reader or worker: what an older version stored in the clear is sealed first.
    await sealLegacyRows({ db, ring, topicIndex, log })

    const provisioned = await provisionAccounts(db, config)
    if (provisioned.created.demoKey || provisioned.created.local) {
      log.info(
        {
          created: Object.entries(provisioned.created)
            .filter(([, value]) => value)
            .map(([key]) => key),
        },
        'first start: created the built-in accounts',
      )
    }

    const memory: MemoryContext = {
      db,
      column: topicMemoryColumn(ring),
      topicIndex,
      log,
      now: () => new Date(),
      maxFacts: config.MEMORY_MAX_FACTS,
    }
    // Web requests and mention jobs (on workers) start runs within the same limits.
    const limits = createLimits({ pool, settings: config, log })
    // Each provider's rate is shared by every process on this database: N workers stay under it together.
    const turns = createProviderTurns({
      pool,
      log,
      rates: {
        exa: { limit: config.EXA_REQUESTS_PER_SECOND, windowSeconds: 1 },
        openai: { limit: config.OPENAI_REQUESTS_PER_MINUTE, windowSeconds: 60 },
      },
      concurrency: { exa: config.EXA_CONCURRENT_REQUESTS, openai: config.OPENAI_CONCURRENT_REQUESTS },
      // A call holds its place at most its own timeout and a margin: one whose process died, no longer.
      leaseMs: config.PROVIDER_TIMEOUT_SECONDS * 1000 + 30_000,
    })
    const configured = await createProviders(config, db, log, turns)
    // No model configured or found: the engine writes with its own extractive synthesizer.
    const providers = { ...configured, model: configured.model ?? createExtractiveModel() }
    // The corpus answers when asked for, and for `open` when the machine is offline.
    if (config.SEARCH_PROVIDER === 'open' || config.SEARCH_PROVIDER === 'corpus') {
      const indexed = await ensureSampleCorpus(db, log)
      if (indexed > 0) log.info({ indexed }, 'indexed the sample corpus for offline research')
    }
    const described = describeProviders(
      config,
      providers,
      config.SEARCH_PROVIDER === 'corpus' ? await countCorpusDocuments(db) : undefined,
    )
    log.info(
      {
        search: providers.search.name,
        model: providers.model.name,
        searchInUse: described.search.inUse,
        searchChange: described.search.change,
        modelInUse: described.model.inUse,
        modelChange: described.model.change,
      },
      'research providers',
    )
    const apiKeys = createApiKeyVerifier(db, {
      failuresPerMinute: config.RATE_LIMIT_KEY_FAILURES_PER_MINUTE,
      verifySecret: options.verifyKeySecret,
    })
    // A device's login cookie is signed with a key derived from the ring's primary key: rotating it
    // forgets every device, which then logs in under the address's and the account's limits again.
    const devices = createLoginDevices(ring.keys.get(ring.primary) as Buffer)
    const logins = createLoginThrottle(limits, devices)
    const infra = { config, log, db, ring, memory, limits, apiKeys, logins, providers }
    // The job handlers call the services, and the services send jobs: both are made when the job
    // system hands over its sender, before any handler can run.
    let made: Services | undefined
    const servicesOver = (jobs: Jobs) => {
      made ??= createServices({ ...infra, jobs })
      return made
    }
    const jobs = await startJobs({
      connectionString: databaseUrl,
      definitions:
        options.jobs ??
        ((jobs) =>
          createJobDefinitions(servicesOver(jobs), {
            concurrency: config.WORKER_CONCURRENCY,
            runsPerAccount: config.RUNS_PER_ACCOUNT,
          })),
      work: config.RUN_ROLE !== 'web',
      log,
      storageProblem,
    })
    cleanups.push(jobs.stop)
    const services = servicesOver(jobs)

    let url: string | undefined
    if (config.RUN_ROLE !== 'worker') {
      if (config.NODE_ENV !== 'development' && config.BUILD_ON_START) await ensureAppBuild(log)
      const hub = await createEventHub({
        connectionString: databaseUrl,
        events: runEventLog(db, eventDataColumn(ring)),
        log,
      })
      cleanups.push(() => hub.close())
      const streams = createOpenStreams({ maxPerPrincipal: config.MAX_EVENT_STREAMS_PER_SESSION })
      const web = createWebServices(infra, services, { hub, streams, localAccountId: provisioned.localAccountId })
      const pages = await mountReactRouter(web)
      cleanups.push(pages.close)
      const liveness = createDatabaseLiveness({ connectionString: databaseUrl, log })
      cleanups.push(liveness.close)
      const app = createHttpApp(web, { version, pages, liveness })
      const server = await startHttpServer(app, config, log)
      cleanups.push(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve())
            server.closeIdleConnections()
            // Long-lived responses (event streams) get a moment, then are cut.
            setTimeout(() => server.closeAllConnections(), 2000).unref()
          }),
      )
      const { port } = server.address() as AddressInfo
      const host = ['127.0.0.1', '0.0.0.0', '::', '::1'].includes(config.HOST) ? 'localhost' : config.HOST
      url = `http://${host}:${port}`
    }

    let stopping: Promise<void> | undefined
    return {
      url,
      databaseUrl,
      db,
      jobs,
      ring,
      memory,
      created: provisioned.created,
      providers: described,
      stop: () => (stopping ??= stop()),
    }
  } catch (error) {
    await stop()
    throw error
  }
}
