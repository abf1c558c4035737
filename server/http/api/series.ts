// /api/series: an account's recurring briefs: pause, resume and stop, how often they run and whether
// quiet runs are delivered, and a run now.
import { type Request, type Response, Router } from 'express'
import { z } from 'zod'
import { sendRefusal } from '#server/http/api/briefs.ts'
import {
  type ApiContract,
  bodyProblems,
  json,
  parameters,
  problem,
  rateLimitHeaders,
  reply,
  responses,
  retryAfter,
} from '#server/http/api/contract.ts'
import { emailOff } from '#server/http/api/email.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { fieldProblem, noBody, parseInput } from '#server/http/api/validation.ts'
import { principalOf, requesterOf } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { setRateLimitHeaders } from '#server/http/rate-limit.ts'
import { RunStartSchema } from '#server/runs/contract.ts'
import { SeriesViewSchema } from '#server/series/contract.ts'
import type { WebServices } from '#server/services.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { SERIES_STATUSES, type SeriesStatus } from '#server/vocabulary/series.ts'

const UpdateSeriesSchema = z
  .strictObject({
    status: z
      .enum(SERIES_STATUSES)
      .exclude(['cancelled'])
      .optional()
      .describe('paused: no further runs start; active: resume the schedule.'),
    every: BriefSchema.shape.every,
    cron: BriefSchema.shape.cron,
    timeZone: BriefSchema.shape.timeZone,
    notify: BriefSchema.shape.notify,
    emailDigest: z
      .boolean()
      .optional()
      .describe("true: mail each run worth telling to the account's verified addresses (needs SMTP_URL)."),
  })
  .refine(
    (body) => Object.keys(body).length > 0,
    'give at least one of status, every, cron, timeZone, notify, emailDigest',
  )
  .refine((body) => body.every === undefined || body.cron === undefined, {
    path: ['cron'],
    message: 'give every or cron, not both',
  })
  .refine((body) => body.timeZone === undefined || body.cron !== undefined, {
    path: ['timeZone'],
    message: 'timeZone is the zone cron is read in: add cron',
  })

const Series = SeriesViewSchema.meta({ id: 'Series' })
const seriesPath = { path: z.object({ seriesId: parameters.seriesId }) }

export const seriesContract = {
  '/api/series': {
    get: {
      operationId: 'listSeries',
      tags: ['series'],
      summary: 'Your recurring briefs, newest first',
      responses: {
        '200': json('The series.', z.object({ series: z.array(Series) }).meta({ id: 'SeriesList' })),
        '401': responses.unauthorized,
      },
    },
  },
  '/api/series/{seriesId}': {
    get: {
      operationId: 'getSeries',
      tags: ['series'],
      summary: 'A recurring brief and what it is doing',
      requestParams: seriesPath,
      responses: { '200': json('The series.', Series), '401': responses.unauthorized, '404': responses.notFound },
    },
    patch: {
      operationId: 'updateSeries',
      tags: ['series'],
      summary: 'Pause or resume a recurring brief, change how often it runs, or whether quiet runs are delivered',
      description:
        'every (1h to 30d) or cron with timeZone replaces the cadence; a sleeping series is rescheduled from its last run. ' +
        'notify: changes delivers only runs whose delta has something new, updated or contradicted. ' +
        "emailDigest: true mails each run worth telling to the account's verified addresses.",
      requestParams: seriesPath,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: UpdateSeriesSchema.meta({ id: 'UpdateSeriesInput' }) } },
      },
      responses: {
        '200': json('The series after the change.', Series),
        '400': problem('The change is not valid, or the cadence is outside the allowed range (the detail says it).'),
        '401': responses.unauthorized,
        '404': responses.notFound,
        '409': problem('The series was stopped; start a new brief instead.'),
        '503': problem('emailDigest: true, but email is off on this server (no SMTP_URL).'),
        ...bodyProblems,
      },
    },
    delete: {
      operationId: 'stopSeries',
      tags: ['series'],
      summary: 'Stop a recurring brief for good (its past runs stay)',
      requestParams: seriesPath,
      responses: {
        '200': json('The series, now cancelled.', Series),
        '401': responses.unauthorized,
        '404': responses.notFound,
        '409': problem('The series was already stopped.'),
      },
    },
  },
  '/api/series/{seriesId}/run': {
    post: {
      operationId: 'runSeriesNow',
      tags: ['series'],
      summary: 'Run a recurring brief now',
      description:
        'Takes the run that was due next: the one after it is scheduled from this run’s end, so the schedule ' +
        'moves once. Counts against your hourly runs like any brief.',
      requestParams: seriesPath,
      responses: {
        '202': {
          ...json('The run started.', RunStartSchema),
          headers: z.object({
            Location: z.string().meta({ description: 'The run: `/api/briefs/{runId}`.' }),
            ...rateLimitHeaders,
          }),
        },
        '401': responses.unauthorized,
        '404': responses.notFound,
        '409': problem('A run of the series is going, or the series is paused or stopped.'),
        '429': responses.tooManyRequests,
        '503': problem(
          'The run could not be queued (the database or the job system cannot take it); none started, and the schedule has not moved.',
          retryAfter,
        ),
      },
    },
  },
} satisfies ApiContract

const STOPPED = 'This recurring brief was stopped; start a new brief instead.'

const RUN_NOW_CONFLICT = {
  running: 'A run of this recurring brief is going now; wait for it to end.',
  sleeping: 'This recurring brief cannot run now.',
  paused: 'This recurring brief is paused; resume it first (PATCH with "status": "active").',
  cancelled: STOPPED,
} as const

function seriesNotFound(seriesId: string): HttpProblem {
  return new HttpProblem({
    status: 404,
    title: 'Not Found',
    detail: `You have no recurring brief with the id ${seriesId}.`,
  })
}

/** The operations on one series. */
const one = seriesContract['/api/series/{seriesId}']

export function seriesRoutes(services: WebServices): Router {
  const router = Router()
  const { series } = services

  async function change(req: Request, res: Response, status: SeriesStatus) {
    const seriesId = String(req.params.seriesId)
    const outcome = await series.setStatus(principalOf(res).accountId, seriesId, status)
    if (outcome.ok) return reply(res, one[status === 'cancelled' ? 'delete' : 'patch'], '200', outcome.series)
    if (outcome.reason === 'not_found') throw seriesNotFound(seriesId)
    throw new HttpProblem({ status: 409, title: 'Conflict', detail: STOPPED })
  }

  router.get('/', async (_req, res) => {
    reply(res, seriesContract['/api/series'].get, '200', { series: await series.list(principalOf(res).accountId) })
  })
  router.all('/', methodNotAllowed(['GET']))

  router.get('/:seriesId', async (req, res) => {
    const seriesId = String(req.params.seriesId)
    const found = await series.get(principalOf(res).accountId, seriesId)
    if (!found) throw seriesNotFound(seriesId)
    reply(res, one.get, '200', found)
  })
  router.patch('/:seriesId', async (req, res) => {
    const { status, ...settings } = parseInput(UpdateSeriesSchema, req.body ?? {})
    const seriesId = String(req.params.seriesId)
    if (Object.keys(settings).length > 0) {
      const outcome = await series.update(principalOf(res).accountId, seriesId, settings)
      if (!outcome.ok) {
        if (outcome.reason === 'not_found') throw seriesNotFound(seriesId)
        if (outcome.reason === 'schedule') throw fieldProblem(outcome.field, outcome.message)
        if (outcome.reason === 'email_off') throw emailOff()
        throw new HttpProblem({ status: 409, title: 'Conflict', detail: STOPPED })
      }
      if (!status) return reply(res, one.patch, '200', outcome.series)
    }
    if (status) await change(req, res, status)
  })
  router.post('/:seriesId/run', noBody, async (req, res) => {
    const seriesId = String(req.params.seriesId)
    const principal = principalOf(res)
    const outcome = await series.runNow({
      accountId: principal.accountId,
      seriesId,
      requester: requesterOf(principal),
      source: 'api',
    })
    if (outcome.ok) {
      for (const decision of outcome.decisions) setRateLimitHeaders(res, decision)
      return reply(
        res.location(`/api/briefs/${outcome.run.runId}`),
        seriesContract['/api/series/{seriesId}/run'].post,
        '202',
        outcome.run,
      )
    }
    if (outcome.reason === 'not_found') throw seriesNotFound(seriesId)
    if (outcome.reason === 'refused') return sendRefusal(res, outcome.refusal)
    throw new HttpProblem({ status: 409, title: 'Conflict', detail: RUN_NOW_CONFLICT[outcome.reason] })
  })
  router.all('/:seriesId/run', methodNotAllowed(['POST']))
  router.delete('/:seriesId', noBody, async (req, res) => {
    await change(req, res, 'cancelled')
  })
  router.all('/:seriesId', methodNotAllowed(['GET', 'PATCH', 'DELETE']))
  return router
}
