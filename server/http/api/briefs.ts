// /api/briefs: start a run (202 at once; the run goes on without the client), read it, list them,
// cancel one, and stream its progress as server-sent events.
import { type Request, type RequestHandler, type Response, Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { ensureDemoVisitorAccount } from '#server/auth/demo-visitors.ts'
import { streamPrincipal } from '#server/auth/stream-principals.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf, requesterOf } from '#server/http/api-auth.ts'
import { idempotent } from '#server/http/idempotency.ts'
import { HttpProblem, sendProblem } from '#server/http/problem.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/limits/http.ts'
import { type Refusal, startAdmittedRun } from '#server/research/admission.ts'
import { type Brief, ClientBriefSchema } from '#server/research/brief.ts'
import { endRun } from '#server/research/run-end.ts'
import { getRun, listRuns, viewRun } from '#server/research/runs.ts'
import { recurringInfo } from '#server/research/series.ts'
import { RunNotQueuedError } from '#server/research/start-run.ts'
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

/** A refused start: 403 for what the caller may never do, 429 for a limit reached. */
export function sendRefusal(res: Response, refusal: Refusal): void {
  if (refusal.reason === 'rate_limited') sendRateLimited(res, refusal.decision, refusal.message)
  else sendProblem(res, { status: 403, title: 'Forbidden', detail: refusal.message })
}

export function briefsRoutes(services: AppServices): Router {
  const router = Router()
  const deps = {
    db: services.db,
    jobs: services.jobs,
    memory: services.memory,
    deadlines: services.deadlines,
    limits: services.limits,
  }
  // Corpus sources by their pages here: an API client cannot open https://corpus.local/...
  const readable = () => ({ publicUrl: services.config.PUBLIC_URL })

  async function ownRun(req: Request, res: Response) {
    const runId = String(req.params.runId)
    const row = await getRun(services.db, runId, principalOf(res).accountId)
    if (!row) throw runNotFound(runId)
    return row
  }

  // Validated first, so fixing a typo in a brief spends nothing.
  const validBrief: RequestHandler = (req, res, next) => {
    res.locals.brief = parseInput(ClientBriefSchema, req.body ?? {})
    next()
  }
  // A demo visitor's account must exist before an idempotency record can refer to it.
  const visitorAccount: RequestHandler = async (req, res, next) => {
    const { visitor } = principalOf(res)
    if (visitor && req.get('idempotency-key') !== undefined) await ensureDemoVisitorAccount(services.db, visitor)
    next()
  }
  // Admission after the idempotency check: a replayed request answers as before and counts nothing.
  router.post('/briefs', validBrief, visitorAccount, idempotent(services.db), async (_req, res) => {
    const principal = principalOf(res)
    const { visitor } = principal
    const outcome = await startAdmittedRun(deps, {
      requester: requesterOf(principal),
      brief: res.locals.brief as Brief,
      accountId: visitor
        ? async () => {
            await ensureDemoVisitorAccount(services.db, visitor)
            return visitor.accountId
          }
        : principal.accountId,
    }).catch((error: unknown) => {
      // The limits it counted were given back; nothing was started.
      if (!(error instanceof RunNotQueuedError)) throw error
      services.log.error({ err: error }, 'a run could not be queued')
      res.set('Retry-After', String(error.retryAfterSeconds))
      throw new HttpProblem({
        status: 503,
        title: 'Service Unavailable',
        detail: `The run could not be queued, so none was started. Try again in ${error.retryAfterSeconds} seconds.`,
        retryAfterSeconds: error.retryAfterSeconds,
      })
    })
    if (!outcome.ok) {
      sendRefusal(res, outcome.refusal)
      return
    }
    for (const decision of outcome.decisions) setRateLimitHeaders(res, decision)
    res.status(202).location(`/api/briefs/${outcome.run.runId}`).json(outcome.run)
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
    res.json({ ...viewRun(services.memory.ring, row, readable()), ...(recurring ? { recurring } : {}) })
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
    res.json(viewRun(services.memory.ring, cancelled ?? row, readable()))
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
