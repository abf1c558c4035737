// /healthz: the process is up and its database answers. /readyz: it can do its work (database,
// migrations, and a job system that can queue a run). The database ping of /healthz and the queue
// probe of /readyz run at most once a second, whatever the request rate.
import { Router } from 'express'
import { type Health, HealthSchema, type Readiness, ReadinessSchema } from '#server/contracts/health.ts'
import { type ApiContract, json, publicOperation, reply } from '#server/http/api/contract.ts'
import type { DatabaseLiveness } from '#server/http/database-liveness.ts'
import type { HealthService } from '#server/services/operations.ts'

type Check = { ok: boolean; [detail: string]: unknown }

const PROBE_INTERVAL_MS = 1000

const HealthBody = HealthSchema.meta({ id: 'Health' })
const ReadinessBody = ReadinessSchema.meta({ id: 'Readiness' })

export const healthContract = {
  '/healthz': {
    get: {
      operationId: 'getHealth',
      tags: ['meta'],
      summary: 'Liveness: the process is up and its database answers',
      description: 'The database is pinged at most once a second, however often this is called.',
      ...publicOperation,
      responses: {
        '200': json('Up.', HealthBody),
        '503': json('The database is not answering; `reason` says so.', HealthBody),
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'getReadiness',
      tags: ['meta'],
      summary: 'Readiness: database, migrations, and a job system that can queue a run',
      ...publicOperation,
      responses: {
        '200': json('Ready.', ReadinessBody),
        '503': json('Not ready; `checks` says which part failed.', ReadinessBody),
      },
    },
  },
} satisfies ApiContract

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

async function check(fn: () => Promise<Omit<Check, 'ok'> & { ok?: boolean }>): Promise<Check> {
  try {
    return { ok: true, ...(await withTimeout(fn(), 2000)) }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/** `probe` at most once per interval; callers meanwhile get the last answer, or wait for the one in flight. */
function throttled(probe: () => Promise<Check>, intervalMs = PROBE_INTERVAL_MS): () => Promise<Check> {
  let last: { at: number; result: Check } | undefined
  let inFlight: Promise<Check> | undefined
  return () => {
    if (last && Date.now() - last.at < intervalMs) return Promise.resolve(last.result)
    inFlight ??= probe().then((result) => {
      last = { at: Date.now(), result }
      inFlight = undefined
      return result
    })
    return inFlight
  }
}

export function healthRoutes(deps: { health: HealthService; liveness: DatabaseLiveness; version: string }): Router {
  const router = Router()
  const { health } = deps
  const startedAt = Date.now()
  const queue = throttled(() =>
    check(async () => {
      await health.probeRunQueue()
      return {}
    }),
  )

  router.get('/healthz', async (_req, res) => {
    const { ok } = await deps.liveness.check()
    const uptimeSeconds = Math.round((Date.now() - startedAt) / 1000)
    // The reason stays generic: this endpoint is public, and the log has the error.
    const health: Health = ok
      ? { status: 'ok', version: deps.version, uptimeSeconds }
      : { status: 'down', reason: 'the database is not answering', version: deps.version, uptimeSeconds }
    reply(res, healthContract['/healthz'].get, ok ? '200' : '503', health)
  })

  router.get('/readyz', async (_req, res) => {
    const [database, migrations, jobs] = await Promise.all([
      check(async () => {
        const started = performance.now()
        await health.ping()
        return { latencyMs: Math.round((performance.now() - started) * 10) / 10 }
      }),
      check(async () => {
        const pending = await health.pendingMigrations()
        return { ok: pending.length === 0, pending }
      }),
      health.jobsRunning() ? queue() : { ok: false, error: 'the job system is stopped' },
    ])
    const ready = database.ok && migrations.ok && jobs.ok
    const readiness: Readiness = { status: ready ? 'ready' : 'not_ready', checks: { database, migrations, jobs } }
    reply(res, healthContract['/readyz'].get, ready ? '200' : '503', readiness)
  })
  return router
}
