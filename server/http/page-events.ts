// Live progress for the pages: the same event stream as /api/briefs/{id}/events, authenticated by
// the page's cookie (a dashboard session, or a trial visitor) instead of an API key; and the
// dashboard's run list, streamed.
import { type Request, type Response, Router } from 'express'
import type { AppServices } from '#app/context.ts'
import { dashboardRuns } from '#app/dashboard.server.ts'
import { getSessionAccount, readCookie, SESSION_COOKIE } from '#server/auth/sessions.ts'
import { findTrialAccountId, TRIAL_COOKIE } from '#server/auth/trial.ts'
import { streamAccountRuns } from '#server/events/account-stream.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { sendProblem } from '#server/http/problem.ts'
import { getRun } from '#server/research/runs.ts'

export function pageEventRoutes(services: AppServices): Router {
  const router = Router()

  async function stream(req: Request, res: Response, accountId: string | undefined) {
    const run = accountId ? await getRun(services.db, String(req.params.runId), accountId) : undefined
    if (!run) return sendProblem(res, { status: 404, title: 'Not Found', detail: 'No such run for you.' })
    await streamRunEvents({
      hub: services.events,
      db: services.db,
      ring: services.memory.ring,
      req,
      res,
      runId: run.id,
    })
  }

  async function sessionAccountId(req: Request) {
    const token = readCookie(req.get('cookie'), SESSION_COOKIE)
    return token ? (await getSessionAccount(services.db, token))?.id : undefined
  }

  // The dashboard's run list, live: runs started anywhere appear, statuses and steps advance.
  router.get('/dashboard/events', async (req, res) => {
    const accountId = await sessionAccountId(req)
    if (!accountId) return sendProblem(res, { status: 401, title: 'Unauthorized', detail: 'Log in first.' })
    await streamAccountRuns({
      hub: services.events,
      req,
      res,
      accountId,
      read: () => dashboardRuns(services.db, services.memory.ring, accountId),
    })
  })

  router.get('/dashboard/runs/:runId/events', async (req, res) => {
    await stream(req, res, await sessionAccountId(req))
  })

  router.get('/trial/runs/:runId/events', async (req, res) => {
    const token = readCookie(req.get('cookie'), TRIAL_COOKIE)
    await stream(req, res, token ? await findTrialAccountId(services.db, token) : undefined)
  })
  return router
}
