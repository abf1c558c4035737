// /api/series: an account's recurring briefs, with pause, resume and stop.
import { type Request, type Response, Router } from 'express'
import { z } from 'zod'
import { SeriesViewSchema } from '#server/contracts/series.ts'
import { type ApiContract, bodyProblems, json, parameters, problem, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'

const UpdateSeriesSchema = z.strictObject({
  status: z.enum(['active', 'paused']).describe('paused: no further runs start; active: resume the schedule.'),
})

const Series = SeriesViewSchema.meta({ id: 'Series' })
const seriesPath = { path: z.object({ seriesId: parameters.seriesId }) }

export const seriesContract: ApiContract = {
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
      summary: 'Pause or resume a recurring brief',
      requestParams: seriesPath,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: UpdateSeriesSchema.meta({ id: 'UpdateSeriesInput' }) } },
      },
      responses: {
        '200': json('The series after the change.', Series),
        '400': responses.badRequest,
        '401': responses.unauthorized,
        '404': responses.notFound,
        '409': problem('The series was stopped; start a new brief instead.'),
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
}

function seriesNotFound(seriesId: string): HttpProblem {
  return new HttpProblem({
    status: 404,
    title: 'Not Found',
    detail: `You have no recurring brief with the id ${seriesId}.`,
  })
}

export function seriesRoutes(services: WebServices): Router {
  const router = Router()
  const { series } = services

  async function change(req: Request, res: Response, status: 'active' | 'paused' | 'cancelled') {
    const seriesId = String(req.params.seriesId)
    const outcome = await series.setStatus(principalOf(res).accountId, seriesId, status)
    if (outcome.ok) return void res.json(outcome.series)
    if (outcome.reason === 'not_found') throw seriesNotFound(seriesId)
    throw new HttpProblem({
      status: 409,
      title: 'Conflict',
      detail: 'This recurring brief was stopped; start a new brief instead.',
    })
  }

  router.get('/series', async (_req, res) => {
    res.json({ series: await series.list(principalOf(res).accountId) })
  })
  router.all('/series', methodNotAllowed(['GET']))

  router.get('/series/:seriesId', async (req, res) => {
    const seriesId = String(req.params.seriesId)
    const found = await series.get(principalOf(res).accountId, seriesId)
    if (!found) throw seriesNotFound(seriesId)
    res.json(found)
  })
  router.patch('/series/:seriesId', async (req, res) => {
    const { status } = parseInput(UpdateSeriesSchema, req.body ?? {})
    await change(req, res, status)
  })
  router.delete('/series/:seriesId', async (req, res) => {
    await change(req, res, 'cancelled')
  })
  router.all('/series/:seriesId', methodNotAllowed(['GET', 'PATCH', 'DELETE']))
  return router
}
