// /api/series: an account's recurring briefs, with pause, resume and stop.
import { type Request, type Response, Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { getSeries, listSeries, setSeriesStatus } from '#server/research/series.ts'

export const UpdateSeriesSchema = z.strictObject({
  status: z.enum(['active', 'paused']).describe('paused: no further runs start; active: resume the schedule.'),
})

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
