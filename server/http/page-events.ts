// Live progress for the pages: the same event stream as /api/briefs/{id}/events, authenticated by
// the page's cookie (a dashboard session, or a trial visitor) instead of an API key; and the
// dashboard's run list, streamed. Each session or visitor holds a bounded number of streams, and a
// session's streams end when it logs out.
import { type Request, type Response, Router } from 'express'
import type { AppServices } from '#app/context.ts'
import { dashboardRuns } from '#app/dashboard.server.ts'
import { getSessionAccount, readCookie, SESSION_COOKIE } from '#server/auth/sessions.ts'
import { streamPrincipal } from '#server/auth/stream-principals.ts'
import { findTrialAccountId, TRIAL_COOKIE } from '#server/auth/trial.ts'
import { createAccountRunStreams } from '#server/events/account-stream.ts'
import { streamRunEvents } from '#server/events/sse.ts'
import { sendProblem } from '#server/http/problem.ts'
import { getRun } from '#server/research/runs.ts'

/** Whose page is asking: the account it sees, and whose allowance of streams it uses. */
type Viewer = { accountId: string; principal: string }

export function pageEventRoutes(services: AppServices): Router {
  const router = Router()
  const runLists = createAccountRunStreams({
    hub: services.events,
    read: (accountId) => dashboardRuns(services.db, services.memory.ring, accountId),
  })

  async function sessionViewer(req: Request): Promise<Viewer | undefined> {
    const token = readCookie(req.get('cookie'), SESSION_COOKIE)
    const account = token ? await getSessionAccount(services.db, token) : undefined
    return token && account ? { accountId: account.id, principal: streamPrincipal.session(token) } : undefined
  }

  async function trialViewer(req: Request): Promise<Viewer | undefined> {
    const token = readCookie(req.get('cookie'), TRIAL_COOKIE)
    const accountId = token ? await findTrialAccountId(services.db, token) : undefined
    return accountId ? { accountId, principal: streamPrincipal.trial(accountId) } : undefined
  }

  async function stream(req: Request, res: Response, viewer: Viewer | undefined) {
    const run = viewer ? await getRun(services.db, String(req.params.runId), viewer.accountId) : undefined
    if (!viewer || !run) return sendProblem(res, { status: 404, title: 'Not Found', detail: 'No such run for you.' })
    const signal = services.streams.admit(viewer.principal, res)
    await streamRunEvents({
      hub: services.events,
      db: services.db,
      ring: services.memory.ring,
      req,
      res,
      runId: run.id,
      signal,
    })
  }

  // The dashboard's run list, live: runs started anywhere appear, statuses and steps advance.
  router.get('/dashboard/events', async (req, res) => {
    const viewer = await sessionViewer(req)
    if (!viewer) return sendProblem(res, { status: 401, title: 'Unauthorized', detail: 'Log in first.' })
    const signal = services.streams.admit(viewer.principal, res)
    await runLists.stream({ res, accountId: viewer.accountId, signal })
  })

  router.get('/dashboard/runs/:runId/events', async (req, res) => {
    await stream(req, res, await sessionViewer(req))
  })

  router.get('/trial/runs/:runId/events', async (req, res) => {
    await stream(req, res, await trialViewer(req))
  })
  return router
}
