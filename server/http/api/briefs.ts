// /api/briefs: start a run (202 at once; the run goes on without the client), read it, list them,
// cancel one, and stream its progress as server-sent events.
import { type Request, type RequestHandler, type Response, Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { streamPrincipal } from '#server/auth/stream-principals.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { idempotent } from '#server/http/idempotency.ts'
import { limitRunStarts } from '#server/http/limit-guards.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { type Brief, BriefSchema } from '#server/research/brief.ts'
import { endRun } from '#server/research/run-end.ts'
import { getRun, listRuns, viewRun } from '#server/research/runs.ts'
import { recurringInfo } from '#server/research/series.ts'
import { RunNotQueuedError, startRun } from '#server/research/start-run.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/storable-text.ts'

export const ListRunsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs per page, 1 to 100.'),
  cursor: z.string().max(64).optional().describe('nextCursor from the previous page.'),
  status: z.enum(['running', 'complete', 'failed', 'cancelled']).optional(),
  topic: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine(isStorableText, `topic ${UNSTORABLE_TEXT_MESSAGE}`)
    .optional()
    .describe('Only runs on this topic (same normalization as memory).'),
})

function runNotFound(runId: string): HttpProblem {
  return new HttpProblem({ status: 404, title: 'Not Found', detail: `You have no run with the id ${runId}.` })
}

export function briefsRoutes(services: AppServices): Router {
  const router = Router()
  const deps = { db: services.db, jobs: services.jobs, memory: services.memory, deadlines: services.deadlines }

  async function ownRun(req: Request, res: Response) {
    const runId = String(req.params.runId)
    const row = await getRun(services.db, runId, principalOf(res).accountId)
    if (!row) throw runNotFound(runId)
    return row
  }

  // Validated before the rate limit, so fixing a typo in a brief does not spend one of the hour's runs.
  const validBrief: RequestHandler = (req, res, next) => {
    res.locals.brief = parseInput(BriefSchema, req.body ?? {})
    next()
  }
  router.post('/briefs', validBrief, limitRunStarts(services), idempotent(services.db), async (_req, res) => {
    const started = await startRun(deps, principalOf(res).accountId, res.locals.brief as Brief).catch(
      (error: unknown) => {
        if (!(error instanceof RunNotQueuedError)) throw error
        services.log.error({ err: error }, 'a run could not be queued')
        res.set('Retry-After', String(error.retryAfterSeconds))
        throw new HttpProblem({
          status: 503,
          title: 'Service Unavailable',
          detail: `The run could not be queued, so none was started. Try again in ${error.retryAfterSeconds} seconds.`,
          retryAfterSeconds: error.retryAfterSeconds,
        })
      },
    )
    res.status(202).location(`/api/briefs/${started.runId}`).json(started)
  })

  router.get('/briefs', async (req, res) => {
    const query = parseInput(ListRunsQuerySchema, req.query, 'query')
    const { accountId } = principalOf(res)
    const page = await listRuns(services.db, services.memory.ring, accountId, {
      limit: query.limit,
      cursor: query.cursor,
      status: query.status,
      topicHash: query.topic ? services.memory.topicIndex.hash(accountId, query.topic) : undefined,
    })
    res.json(page)
  })
  router.all('/briefs', methodNotAllowed(['GET', 'POST']))

  router.get('/briefs/:runId', async (req, res) => {
    const row = await ownRun(req, res)
    const recurring = row.series_id ? await recurringInfo(services.db, row.series_id) : undefined
    res.json({ ...viewRun(services.memory.ring, row), ...(recurring ? { recurring } : {}) })
  })

  router.delete('/briefs/:runId', async (req, res) => {
    const row = await ownRun(req, res)
    const deps = {
      db: services.db,
      jobs: services.jobs,
      ring: services.memory.ring,
      intervalSeconds: services.config.RECURRING_INTERVAL,
    }
    if (!(await endRun(deps, row.id, { status: 'cancelled', accountId: row.account_id }))) {
      throw new HttpProblem({
        status: 409,
        title: 'Conflict',
        detail: `The run is already ${row.status}; only a running run can be cancelled.`,
      })
    }
    const cancelled = await getRun(services.db, row.id)
    res.json(viewRun(services.memory.ring, cancelled ?? row))
  })
  router.all('/briefs/:runId', methodNotAllowed(['GET', 'DELETE']))

  router.get('/briefs/:runId/events', async (req, res) => {
    const row = await ownRun(req, res)
    // A bounded number per key (a 429 beyond), and they end when the key is revoked.
    const signal = services.streams.admit(streamPrincipal.api(principalOf(res)), res)
    await streamRunEvents({
      hub: services.events,
      db: services.db,
      ring: services.memory.ring,
      req,
      res,
      runId: row.id,
      signal,
    })
  })
  router.all('/briefs/:runId/events', methodNotAllowed(['GET']))
  return router
}
