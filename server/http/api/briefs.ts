// /api/briefs: start a run (202 at once; the run goes on without the client), read it, list them,
// cancel one. Its progress as server-sent events is run-events.ts.
import { type Request, type RequestHandler, type Response, Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { ensureDemoVisitorAccount } from '#server/auth/demo-visitors.ts'
import {
  RunListPageSchema,
  RunStartSchema,
  RunStatusSchema,
  type RunView,
  RunViewSchema,
} from '#server/contracts/run.ts'
import {
  type ApiContract,
  bodyProblems,
  headers,
  json,
  parameters,
  problem,
  rateLimitHeaders,
  responses,
  retryAfter,
} from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf, requesterOf } from '#server/http/api-auth.ts'
import { IDEMPOTENCY_KEY_PATTERN, idempotent } from '#server/http/idempotency.ts'
import { HttpProblem, sendProblem } from '#server/http/problem.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/http/rate-limit.ts'
import { type Refusal, startAdmittedRun } from '#server/research/admission.ts'
import { type Brief, ClientBriefSchema } from '#server/research/brief.ts'
import { getRun, listRuns, viewRun } from '#server/research/runs.ts'
import { recurringInfo } from '#server/research/series.ts'
import { RunNotQueuedError } from '#server/research/start-run.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/storable-text.ts'

const ListRunsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs per page, 1 to 100.'),
  cursor: z.string().max(64).optional().describe('nextCursor from the previous page.'),
  status: RunStatusSchema.optional(),
  topic: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine(isStorableText, `topic ${UNSTORABLE_TEXT_MESSAGE}`)
    .optional()
    .describe('Only runs on this topic (same normalization as memory).'),
})

const RunViewResponse = RunViewSchema.meta({ id: 'RunView' })
const runPath = { path: z.object({ runId: parameters.runId }) }
const IdempotencyKey = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .optional()
  .meta({
    description:
      'The same key and body within 24 hours replay the first answer; the same key with another body is 422.',
    param: { id: 'IdempotencyKey' },
  })

export const briefsContract: ApiContract = {
  '/api/briefs': {
    get: {
      operationId: 'listRuns',
      tags: ['briefs'],
      summary: 'Your runs, newest first',
      description: 'Unknown query parameters are refused (400).',
      requestParams: { query: ListRunsQuerySchema },
      responses: {
        '200': json('One page of runs.', RunListPageSchema.meta({ id: 'RunListPage' })),
        '400': responses.badRequest,
        '401': responses.unauthorized,
      },
    },
    post: {
      operationId: 'startRun',
      tags: ['briefs'],
      summary: 'Start a research run',
      description:
        'Answers 202 at once; the run goes on without the client. Follow it with `GET /api/briefs/{runId}/events` ' +
        'or poll `GET /api/briefs/{runId}`. Unknown fields are refused, so a typo does not fall back to a default.',
      requestParams: { header: z.object({ 'Idempotency-Key': IdempotencyKey }) },
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ClientBriefSchema.meta({ id: 'BriefInput' }) } },
      },
      responses: {
        '202': {
          ...json(
            'The run started (or, with `Idempotent-Replayed: true`, the first answer to this key).',
            RunStartSchema.meta({ id: 'RunStart' }),
          ),
          headers: z.object({
            Location: z
              .string()
              .optional()
              .meta({ description: 'The run: `/api/briefs/{runId}`; not on a replayed answer.' }),
            'Idempotent-Replayed': headers['Idempotent-Replayed'],
            ...rateLimitHeaders,
          }),
        },
        '400': problem(
          'The brief, or the Idempotency-Key, is not valid. `source` may be `api`, `dashboard` or `mcp`; the other sources are set by Sextant.',
        ),
        '401': responses.unauthorized,
        '403': problem('The demo key cannot start a recurring brief.'),
        '409': problem('A request with this Idempotency-Key is still being processed; retry shortly.', retryAfter),
        ...bodyProblems,
        '422': problem('This Idempotency-Key was already used with a different body.'),
        '429': responses.tooManyRequests,
        '503': problem(
          'The run could not be queued (the database or the job system cannot take it); none started.',
          retryAfter,
        ),
      },
    },
  },
  '/api/briefs/{runId}': {
    get: {
      operationId: 'getRun',
      tags: ['briefs'],
      summary: 'A run: status, brief, and the report once complete',
      requestParams: runPath,
      responses: { '200': json('The run.', RunViewResponse), '401': responses.unauthorized, '404': responses.notFound },
    },
    delete: {
      operationId: 'cancelRun',
      tags: ['briefs'],
      summary: 'Cancel a running run',
      requestParams: runPath,
      responses: {
        '200': json('The run, now cancelled.', RunViewResponse),
        '401': responses.unauthorized,
        '404': responses.notFound,
        '409': problem('The run is already complete, failed or cancelled.'),
      },
    },
  },
}

export function runNotFound(runId: string): HttpProblem {
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
    const view: RunView = { ...viewRun(services.memory.ring, row, readable()), ...(recurring ? { recurring } : {}) }
    res.json(view)
  })

  router.delete('/briefs/:runId', async (req, res) => {
    const row = await ownRun(req, res)
    if (!(await services.endRun(row.id, { status: 'cancelled', accountId: row.account_id }))) {
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
  return router
}
