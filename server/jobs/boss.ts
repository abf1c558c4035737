// pg-boss on the app's database, in its own schema. Queues are created at boot from the job
// definitions; a worker parses job data with the definition's zod schema before the handler runs.
import { fromKysely, type Job, PgBoss, type Queue } from 'pg-boss'
import type { z } from 'zod'
import type { Db } from '#db/database.ts'
import { type Logger, withLogContext } from '#server/logger.ts'

/** A queue and the schema of its data (server/jobs/queues.ts declares those code sends to). */
export type JobQueue<Data = unknown> = { queue: string; schema: z.ZodType<Data> }

export type JobDefinition<Data = unknown> = JobQueue<Data> & {
  queueOptions?: Omit<Queue, 'name'>
  /** How many jobs of this queue one process runs at once. */
  concurrency?: number
  /**
   * For notify queues: how often to poll anyway (pg-boss's default is 30 s). A retry after a
   * failure, or a dead worker's job, becomes due without a NOTIFY; only a poll finds it.
   */
  notifyPollingIntervalSeconds?: number
  /** A cron expression (UTC): the job is also sent on this schedule, once across all instances. */
  schedule?: string
  // Method syntax on purpose: definitions of different data types share one list.
  handler(data: Data, job: Job<unknown>): Promise<void>
}

export function defineJob<Data>(definition: JobDefinition<Data>): JobDefinition<Data> {
  return definition
}

export type Jobs = {
  boss: PgBoss
  /** True while started and not stopping; /readyz reports it. */
  isRunning: () => boolean
  /**
   * Why a job sent now would not be worked (the job system is stopped, the database's disk is
   * nearly full), or undefined. No query: cheap enough to ask before every run starts.
   */
  blocked: () => Promise<string | undefined>
  /**
   * Queues a job, its data checked against the queue's schema. With `trx`, the job exists exactly
   * when that transaction commits (it must be one `transaction` opened), and the queue's idle
   * workers here are woken once it has; without, it exists at once and they are woken at once.
   */
  send: <Data>(queue: JobQueue<Data>, data: Data, options?: SendOptions) => Promise<string | null>
  /** Runs `fn` in a transaction of `db`; the queues it sent jobs to are woken once it commits. */
  transaction: <T>(db: Db, fn: (trx: Db) => Promise<T>) => Promise<T>
  /** Wakes this process's idle workers of a queue now instead of at their next poll. */
  wake: (queue: string) => void
  stop: () => Promise<void>
}

export type SendOptions = {
  trx?: Db
  /** Not before: seconds from now, a date, or an ISO string. */
  startAfter?: number | Date | string
  /** At most one queued job with this key (per queue) at a time. */
  singletonKey?: string
}

export const JOBS_SCHEMA = 'pgboss'

export async function startJobs(options: {
  connectionString: string
  /** The jobs; a function receives the job system itself, for handlers that send further jobs. */
  definitions: JobDefinition<unknown>[] | ((jobs: Jobs) => JobDefinition<unknown>[])
  /** Run handlers in this process (roles `all` and `worker`); otherwise only send. */
  work: boolean
  log: Logger
  stopTimeoutMs?: number
  /** Why the database should take no new work, when we can know it (the embedded cluster's disk). */
  storageProblem?: () => Promise<string | undefined>
}): Promise<Jobs> {
  const { log } = options
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: JOBS_SCHEMA,
    application_name: 'sextant-jobs',
    max: 4,
    // Workers of notify queues wake on LISTEN/NOTIFY the moment a job is sent, in any process.
    useListenNotify: true,
    // Supervision finds jobs whose worker stopped heart-beating; every 10 s (default 60) means a run
    // whose worker died resumes elsewhere within about 10 + heartbeat seconds.
    superviseIntervalSeconds: 10,
    // Maintenance and cron run where the work runs; web-only processes just send.
    supervise: options.work,
    schedule: options.work,
  })
  boss.on('error', (error) => log.error({ err: error }, 'job system error'))
  await boss.start()
  let running = true

  let stopping: Promise<void> | undefined
  // Per queue, the ids of this process's workers that are not running a job, least recently woken first.
  const idleWorkers = new Map<string, Set<string>>()
  // The queues each open transaction sent to, woken when it commits (a rolled-back one wakes none).
  const wakesAfterCommit = new WeakMap<Db, Set<string>>()
  const jobs: Jobs = {
    boss,
    isRunning: () => running,
    async blocked() {
      if (!running) return 'the job system is stopped'
      return options.storageProblem?.().catch((error: unknown) => {
        log.warn({ err: error }, 'could not check the database storage')
        return undefined
      })
    },
    async send(queue, data, sendOptions = {}) {
      const { trx, ...options } = sendOptions
      const parsed = queue.schema.parse(data) as object
      if (!trx) {
        const id = await boss.send(queue.queue, parsed, options)
        jobs.wake(queue.queue)
        return id
      }
      const wakes = wakesAfterCommit.get(trx)
      if (!wakes) {
        throw new Error(`a job for ${queue.queue} was sent in a transaction not opened by jobs.transaction()`)
      }
      const id = await boss.send(queue.queue, parsed, { ...options, db: fromKysely(trx as never) })
      wakes.add(queue.queue)
      return id
    },
    async transaction(db, fn) {
      const wakes = new Set<string>()
      const result = await db.transaction().execute((trx) => {
        wakesAfterCommit.set(trx, wakes)
        return fn(trx)
      })
      for (const queue of wakes) jobs.wake(queue)
      return result
    },
    wake(queue) {
      const idle = idleWorkers.get(queue)
      const workerId = idle?.values().next().value
      if (!idle || !workerId) return // every worker is busy; each fetches again when its job ends
      // To the back of the line, so a burst of sends wakes different workers.
      idle.delete(workerId)
      idle.add(workerId)
      boss.notifyWorker(workerId)
    },
    stop() {
      stopping ??= (async () => {
        running = false
        // graceful: let active handlers finish (up to the timeout) before the pool closes.
        await boss.stop({ graceful: true, close: true, timeout: options.stopTimeoutMs ?? 10_000 })
        log.info('job system stopped')
      })()
      return stopping
    },
  }
  const definitions = typeof options.definitions === 'function' ? options.definitions(jobs) : options.definitions
  for (const definition of definitions) {
    await boss.createQueue(definition.queue, definition.queueOptions)
  }
  if (options.work) {
    for (const definition of definitions) {
      if (definition.schedule) await boss.schedule(definition.queue, definition.schedule)
      // One pg-boss worker per slot (not localConcurrency), so each handler knows its worker's id.
      const idle = new Set<string>()
      idleWorkers.set(definition.queue, idle)
      for (let slot = 0; slot < (definition.concurrency ?? 1); slot++) {
        let workerId = ''
        const workOptions = {
          batchSize: 1,
          ...(definition.notifyPollingIntervalSeconds
            ? { notifyPollingIntervalSeconds: definition.notifyPollingIntervalSeconds }
            : {}),
        }
        workerId = await boss.work(definition.queue, workOptions, async ([job]) => {
          if (!job) return
          idle.delete(workerId)
          try {
            await withLogContext({ jobId: job.id }, async () => {
              const data = definition.schema.parse(job.data)
              await definition.handler(data, job)
            })
          } finally {
            idle.add(workerId)
            // After a job pg-boss sleeps the worker until its backstop poll (30 s with LISTEN/NOTIFY,
            // less the job's duration) unless it was notified meanwhile: jobs queued behind busy
            // workers would wait that long. Notified, it fetches again as soon as this job ends.
            boss.notifyWorker(workerId)
          }
        })
        idle.add(workerId)
      }
    }
  }
  log.info({ queues: definitions.map((definition) => definition.queue), work: options.work }, 'job system started')
  return jobs
}
