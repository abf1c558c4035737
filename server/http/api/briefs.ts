// /api/briefs: start a run (202 at once; the run goes on without the client), read it, list them,
// cancel one. Its progress as server-sent events is run-events.ts.
import { type RequestHandler, type Response, Router } from 'express'
import { z } from 'zod'
import {
  type ApiContract,
  bodyProblems,
  headers,
  json,
  parameters,
  problem,
  rateLimitHeaders,
  reply,
  responses,
  retryAfter,
} from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { fieldProblem, noBody, parseInput } from '#server/http/api/validation.ts'
import { principalOf, requesterOf } from '#server/http/api-auth.ts'
import { IDEMPOTENCY_KEY_PATTERN, idempotent } from '#server/http/idempotency.ts'
import { sendKeptJson } from '#server/http/kept-json.ts'
import { HttpProblem, sendProblem } from '#server/http/problem.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/http/rate-limit.ts'
import { RunListPageSchema, RunStartSchema, RunStatusSchema, RunViewSchema } from '#server/runs/contract.ts'
import type { Refusal } from '#server/runs/service.ts'
import type { WebServices } from '#server/services.ts'
import { type Brief, ClientBriefSchema } from '#server/vocabulary/brief.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'

const ListRunsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs per page, 1 to 100.'),
  cursor: z
    .uuid({ error: 'cursor must be the nextCursor of a previous page' })
    .optional()
    .describe('nextCursor from the previous page.'),
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

export const briefsContract = {
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
} satisfies ApiContract

export function runNotFound(runId: string): HttpProblem {
  return new HttpProblem({ status: 404, title: 'Not Found', detail: `You have no run with the id ${runId}.` })
}

/** A refused start: 400 for a cadence out of range, 403 for what the caller may never do, 429 for a limit reached. */
export function sendRefusal(res: Response, refusal: Refusal): void {
  if (refusal.reason === 'rate_limited') sendRateLimited(res, refusal.decision, refusal.message)
  else if (refusal.reason === 'schedule' || refusal.reason === 'webhook')
    sendProblem(res, fieldProblem(refusal.field, refusal.message).problem)
  else if (refusal.reason === 'not_queued') {
    // The limits it counted were given back; nothing was started.
    res.set('Retry-After', String(refusal.retryAfterSeconds))
    const { message: detail, retryAfterSeconds } = refusal
    sendProblem(res, { status: 503, title: 'Service Unavailable', detail, retryAfterSeconds })
  } else sendProblem(res, { status: 403, title: 'Forbidden', detail: refusal.message })
}

export function briefsRoutes(services: WebServices): Router {
  const router = Router()
  const { runs } = services

  // Validated first, so fixing a typo in a brief spends nothing.
  const validBrief: RequestHandler = (req, res, next) => {
    res.locals.brief = parseInput(ClientBriefSchema, req.body ?? {})
    next()
  }
  // A demo visitor's account must exist before an idempotency record can refer to it.
  const visitorAccount: RequestHandler = async (req, res, next) => {
    const { visitor } = principalOf(res)
    if (visitor && req.get('idempotency-key') !== undefined) await services.accounts.ensureVisitor(visitor)
    next()
  }
  // Admission after the idempotency check: a replayed request answers as before and counts nothing.
  router.post('/', validBrief, visitorAccount, idempotent(services.idempotency, services.log), async (_req, res) => {
    const principal = principalOf(res)
    const { visitor } = principal
    const outcome = await runs.start({
      requester: requesterOf(principal),
      brief: res.locals.brief as Brief,
      account: visitor ? { visitor } : { id: principal.accountId },
    })
    if (!outcome.ok) {
      sendRefusal(res, outcome.refusal)
      return
    }
    for (const decision of outcome.decisions) setRateLimitHeaders(res, decision)
    reply(res.location(`/api/briefs/${outcome.run.runId}`), briefsContract['/api/briefs'].post, '202', outcome.run)
  })

  router.get('/', async (req, res) => {
    const query = parseInput(ListRunsQuerySchema, req.query, 'query')
    reply(res, briefsContract['/api/briefs'].get, '200', await runs.list(principalOf(res).accountId, query))
  })
  router.all('/', methodNotAllowed(['GET', 'POST']))

  // Corpus sources come as links to their pages here: an API client cannot open https://corpus.local/...
  router.get('/:runId', async (req, res) => {
    const runId = String(req.params.runId)
    const run = await runs.get(principalOf(res).accountId, runId)
    if (!run) throw runNotFound(runId)
    sendKeptJson(res, briefsContract['/api/briefs/{runId}'].get, run)
  })

  router.delete('/:runId', noBody, async (req, res) => {
    const runId = String(req.params.runId)
    const outcome = await runs.cancel(principalOf(res).accountId, runId)
    if (!outcome.ok && outcome.reason === 'not_found') throw runNotFound(runId)
    if (!outcome.ok) {
      throw new HttpProblem({
        status: 409,
        title: 'Conflict',
        detail: `The run is already ${outcome.status}; only a running run can be cancelled.`,
      })
    }
    reply(res, briefsContract['/api/briefs/{runId}'].delete, '200', outcome.run)
  })
  router.all('/:runId', methodNotAllowed(['GET', 'DELETE']))
  return router
}
