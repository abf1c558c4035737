// Live progress for the pages: the same event stream as /api/briefs/{id}/events, authenticated by
// the page's cookie (a dashboard session, or a trial visitor) instead of an API key.
import { Router } from 'express'
import type { AppServices } from '#app/context.ts'
import { getSessionAccount, readCookie, SESSION_COOKIE } from '#server/auth/sessions.ts'
import { findTrialAccountId, TRIAL_COOKIE } from '#server/auth/trial.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { sendProblem } from '#server/http/problem.ts'
import { getRun } from '#server/research/runs.ts'

export function pageEventRoutes(services: AppServices): Router {
  const router = Router()

  async function stream(
    req: Parameters<Parameters<Router['get']>[1]>[0],
    res: Parameters<Parameters<Router['get']>[1]>[1],
    accountId: string | undefined,
  ) {
    const run = accountId ? await getRun(services.db, String(req.params.runId), accountId) : undefined
    if (!run) return sendProblem(res, { status: 404, title: 'Not Found', detail: 'No such run for you.' })
    await streamRunEvents({ hub: services.events, db: services.db, req, res, runId: run.id })
  }

  router.get('/dashboard/runs/:runId/events', async (req, res) => {
    const token = readCookie(req.get('cookie'), SESSION_COOKIE)
    const account = token ? await getSessionAccount(services.db, token) : undefined
    await stream(req, res, account?.id)
  })

  router.get('/trial/runs/:runId/events', async (req, res) => {
    const token = readCookie(req.get('cookie'), TRIAL_COOKIE)
    await stream(req, res, token ? await findTrialAccountId(services.db, token) : undefined)
  })
  return router
}
