// Live progress for the pages: the same event stream as /api/briefs/{id}/events, authenticated by
// the page's cookie (a dashboard session, or a trial visitor) instead of an API key; and the
// dashboard's run list, streamed. Each session or visitor holds a bounded number of streams, and a
// session's streams end when it logs out.
import { type Request, type Response, Router } from 'express'
import { readCookie, SESSION_COOKIE, TRIAL_COOKIE } from '#server/accounts/contract.ts'
import { streamPrincipal } from '#server/events/stream-principals.ts'
import { sendProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'

/** Whose page is asking: the account it sees, and whose allowance of streams it uses. */
type Viewer = { accountId: string; principal: string }

export function pageEventRoutes(services: WebServices): Router {
  const router = Router()
  const { accounts, live } = services

  async function sessionViewer(req: Request): Promise<Viewer | undefined> {
    const token = readCookie(req.get('cookie'), SESSION_COOKIE)
    const account = token ? await accounts.sessions.account(token) : undefined
    return token && account ? { accountId: account.id, principal: streamPrincipal.session(token) } : undefined
  }

  async function trialViewer(req: Request): Promise<Viewer | undefined> {
    const token = readCookie(req.get('cookie'), TRIAL_COOKIE)
    const accountId = token ? await accounts.trial.find(token) : undefined
    return accountId ? { accountId, principal: streamPrincipal.trial(accountId) } : undefined
  }

  async function stream(req: Request, res: Response, viewer: Viewer | undefined) {
    const runId = viewer && (await services.runs.own(viewer.accountId, String(req.params.runId)))
    if (!viewer || !runId) {
      return sendProblem(res, { status: 404, title: 'Not Found', detail: 'No such run for you.' })
    }
    const signal = live.admit(viewer.principal, res)
    await live.streamRun({ req, res, runId, signal })
  }

  // The dashboard's run list, live: runs started anywhere appear, statuses and steps advance.
  router.get('/dashboard/events', async (req, res) => {
    const viewer = await sessionViewer(req)
    if (!viewer) return sendProblem(res, { status: 401, title: 'Unauthorized', detail: 'Log in first.' })
    const signal = live.admit(viewer.principal, res)
    await live.streamRunList({ res, accountId: viewer.accountId, signal })
  })

  router.get('/dashboard/runs/:runId/events', async (req, res) => {
    await stream(req, res, await sessionViewer(req))
  })

  router.get('/trial/runs/:runId/events', async (req, res) => {
    await stream(req, res, await trialViewer(req))
  })
  return router
}
