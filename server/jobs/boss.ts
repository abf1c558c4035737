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
   * How many jobs of one group (SendOptions.group) are at work at once across every process: a
   * fetch skips the jobs of a group at its limit (pg-boss counts the active ones in the database).
   * Two fetches at the same moment can each miss the other's claim (pg-boss before 12.38.1), so a
   * handler that must never exceed it checks again itself (the runs do: start_run_clock).
   */
  groupConcurrency?: number
  /**
   * How often this process looks for the queue's jobs that nothing announced: a retry after a
   * failure, a delayed job, a dead worker's job, and on a queue without `notify` any job another
   * process sent. They become due without a NOTIFY or a wake; only a look finds them. One idle
   * worker looks each time, however many the queue has. pg-boss's defaults: 30 s on a notify
   * queue, 2 s on others.
   */
  pollSeconds?: number
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
  /** Wakes one of this process's idle workers of a queue now instead of at the next look. */
  wake: (queue: string) => void
  stop: () => Promise<void>
}

export type SendOptions = {
  trx?: Db
  /** Not before: seconds from now, a date, or an ISO string. */
  startAfter?: number | Date | string
  /** At most one queued job with this key (per queue) at a time. */
  singletonKey?: string
  /** Workers take higher first, then older (pg-boss fetches by priority desc, created_on). */
  priority?: number
  /** Its group (pg-boss's `group.id`): a queue's `groupConcurrency` caps the group's jobs at work at once. */
  group?: string
}

export const JOBS_SCHEMA = 'pgboss'

const DEFAULT_POLL_SECONDS = { notify: 30, other: 2 }
/**
 * pg-boss's own poll, per worker: only a backstop for the process's one look per queue (above),
 * which wakes an idle worker. Left to pg-boss, every worker polls (2 s by default, 30 s on notify
 * queues): an idle process made about seven fetches a second, each finding nothing.
 */
const WORKER_POLL_SECONDS = 300

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
    // Workers of notify queues wake on LISTEN/NOTIFY the moment a job is sent, in any process (one
    // worker per process: see listenWakingOne). A process that only sends has nothing to wake.
    useListenNotify: options.work,
    // Supervision finds jobs whose worker stopped heart-beating, in its monitor pass: both every
    // 10 s (default 60 each) mean a run whose worker died resumes elsewhere within about 10 +
    // heartbeat seconds. The supervision interval alone does not: the monitor pass is gated by its own.
    superviseIntervalSeconds: 10,
    monitorIntervalSeconds: 10,
    // Maintenance and cron run where the work runs; web-only processes just send.
    supervise: options.work,
    schedule: options.work,
  })
  boss.on('error', (error) => log.error({ err: error }, 'job system error'))
  // Per queue, the ids of this process's workers that are not running a job, least recently woken first.
  const idleWorkers = new Map<string, Set<string>>()
  // A pg-boss worker keeps one "notified" flag: however many wakes reach it while it sleeps, fetches
  // or runs a job, it fetches once more. So wakes are not counted: a worker that ends a job always
  // fetches again (below), and the jobs announced while it was busy, or whose wakes were folded into
  // one (a burst of NOTIFYs read at once, a transaction's sends), are found that way until a fetch
  // comes back empty.
  /** Wakes the queue's least recently woken idle worker in this process. */
  const wake = (queue: string) => {
    const idle = idleWorkers.get(queue)
    const workerId = idle?.values().next().value
    if (!idle || !workerId) return
    // To the back of the line, so a burst of sends wakes different workers.
    idle.delete(workerId)
    idle.add(workerId)
    boss.notifyWorker(workerId)
  }
  // While this process hears the NOTIFY of a job sent to a notify queue, that NOTIFY is the wake;
  // waking a worker at the send as well would wake two for one job.
  let listening = false
  const notifyQueues = new Set<string>()
  // Postgres folds a transaction's identical notifications into one, so its NOTIFY announces one job
  // however many it sent to the queue: the sender wakes a worker for each of the others.
  const wakeAfterSend = (queue: string, sent = 1) => {
    const heard = listening && notifyQueues.has(queue) ? 1 : 0
    for (let woken = heard; woken < sent; woken++) jobs.wake(queue)
  }
  listenWakingOne(boss, wake, () => {
    listening = true
  })
  await boss.start()
  let running = true

  let stopping: Promise<void> | undefined
  const looks: NodeJS.Timeout[] = []
  // The jobs each open transaction sent, by queue, woken when it commits (a rolled-back one wakes none).
  const wakesAfterCommit = new WeakMap<Db, Map<string, number>>()
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
      const { trx, group, ...rest } = sendOptions
      const options = { ...rest, ...(group === undefined ? {} : { group: { id: group } }) }
      const parsed = queue.schema.parse(data) as object
      if (!trx) {
        const id = await boss.send(queue.queue, parsed, options)
        wakeAfterSend(queue.queue)
        return id
      }
      const wakes = wakesAfterCommit.get(trx)
      if (!wakes) {
        throw new Error(`a job for ${queue.queue} was sent in a transaction not opened by jobs.transaction()`)
      }
      const id = await boss.send(queue.queue, parsed, { ...options, db: fromKysely(trx as never) })
      wakes.set(queue.queue, (wakes.get(queue.queue) ?? 0) + 1)
      return id
    },
    async transaction(db, fn) {
      const wakes = new Map<string, number>()
      const result = await db.transaction().execute((trx) => {
        wakesAfterCommit.set(trx, wakes)
        return fn(trx)
      })
      for (const [queue, sent] of wakes) wakeAfterSend(queue, sent)
      return result
    },
    wake,
    stop() {
      stopping ??= (async () => {
        running = false
        for (const look of looks) clearInterval(look)
        // graceful: let active handlers finish (up to the timeout) before the pool closes.
        await boss.stop({ graceful: true, close: true, timeout: options.stopTimeoutMs ?? 10_000 })
        log.info('job system stopped')
      })()
      return stopping
    },
  }
  const definitions = typeof options.definitions === 'function' ? options.definitions(jobs) : options.definitions
  for (const definition of definitions) {
    if (definition.queueOptions?.notify) notifyQueues.add(definition.queue)
    await boss.createQueue(definition.queue, definition.queueOptions)
    // createQueue leaves a queue that exists as it was: the code's options must reach it too.
    await boss.updateQueue(definition.queue, queueSettings(definition))
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
          pollingIntervalSeconds: WORKER_POLL_SECONDS,
          notifyPollingIntervalSeconds: WORKER_POLL_SECONDS,
          ...(definition.groupConcurrency ? { groupConcurrency: definition.groupConcurrency } : {}),
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
            // After a job pg-boss sleeps the worker until its own poll (less the job's duration)
            // unless it was notified meanwhile: it fetches again at once, for the jobs announced
            // while it was busy (one empty fetch a job when there are none).
            boss.notifyWorker(workerId)
          }
        })
        idle.add(workerId)
      }
      const pollSeconds =
        definition.pollSeconds ?? DEFAULT_POLL_SECONDS[definition.queueOptions?.notify ? 'notify' : 'other']
      // A look finds what is due by then, or nothing: with every worker busy, it is not owed later.
      const look = setInterval(() => wake(definition.queue), pollSeconds * 1000)
      look.unref()
      looks.push(look)
    }
  }
  log.info({ queues: definitions.map((definition) => definition.queue), work: options.work }, 'job system started')
  return jobs
}

/**
 * pg-boss answers a job's NOTIFY by waking every worker of its queue in the process: with eight
 * idle workers, eight fetches for one job, seven of which find nothing (a quarter of a lone run's
 * statements). Its listener is its database's `listen` (the adapter interface pg-boss documents);
 * this one hands each notification to `wake` instead, which wakes one idle worker. pg-boss's own
 * recovery after the listener reconnects (every worker fetches once) is kept.
 */
function listenWakingOne(boss: PgBoss, wake: (queue: string) => void, listening: () => void): void {
  const db = boss.getDb()
  const listen = db.listen?.bind(db)
  if (!listen) return
  db.listen = async (channel, _wakeEveryWorker, onReconnect) => {
    const handle = await listen(channel, wake, onReconnect)
    listening()
    return handle
  }
}

/**
 * The queue's options as updateQueue takes them (it cannot change a policy), with notify and the
 * heartbeat stated even when the definition leaves them out, so that removing one turns it off.
 */
function queueSettings(definition: JobDefinition<unknown>) {
  const { policy: _policy, partition: _partition, ...options } = definition.queueOptions ?? {}
  return { notify: false, heartbeatSeconds: null, ...options }
}
