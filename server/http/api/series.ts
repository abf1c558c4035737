// /api/series: an account's recurring briefs, with pause, resume and stop.
import { type Request, type Response, Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { SeriesViewSchema } from '#server/contracts/series.ts'
import { type ApiContract, bodyProblems, json, parameters, problem, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { getSeries, listSeries, setSeriesStatus } from '#server/research/series.ts'

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

export function seriesRoutes(services: AppServices): Router {
  const router = Router()
  const deps = () => ({ db: services.db, jobs: services.jobs, intervalSeconds: services.config.RECURRING_INTERVAL })

  async function change(req: Request, res: Response, status: 'active' | 'paused' | 'cancelled') {
    const seriesId = String(req.params.seriesId)
    const { accountId } = principalOf(res)
    const outcome = await setSeriesStatus(deps(), seriesId, accountId, status)
    if (outcome === 'not_found') {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no recurring brief with the id ${seriesId}.`,
      })
    }
    if (outcome === 'cancelled') {
      throw new HttpProblem({
        status: 409,
        title: 'Conflict',
        detail: 'This recurring brief was stopped; start a new brief instead.',
      })
    }
    res.json(await getSeries(services.db, services.memory.ring, seriesId, accountId))
  }

  router.get('/series', async (_req, res) => {
    res.json({ series: await listSeries(services.db, services.memory.ring, principalOf(res).accountId) })
  })
  router.all('/series', methodNotAllowed(['GET']))

  router.get('/series/:seriesId', async (req, res) => {
    const series = await getSeries(
      services.db,
      services.memory.ring,
      String(req.params.seriesId),
      principalOf(res).accountId,
    )
    if (!series)
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no recurring brief with the id ${req.params.seriesId}.`,
      })
    res.json(series)
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
