// GET /feeds/{token}.atom: a private Atom feed, read without a login (feed readers have none): the
// token in the URL is the key. A malformed, unknown or revoked token gets the same 404, so the answer
// never says whether a token ever existed.
import { type Request, type Response, Router } from 'express'
import { z } from 'zod'
import { type ApiContract, problem, publicOperation } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { sendProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'

export const feedReadContract: ApiContract = {
  '/feeds/{token}.atom': {
    get: {
      operationId: 'readFeed',
      tags: ['feeds'],
      summary: 'A private Atom feed (no login: the token is the key)',
      ...publicOperation,
      requestParams: { path: z.object({ token: z.string().meta({ description: 'The token of the feed’s URL.' }) }) },
      responses: {
        '200': {
          description: 'The feed, Atom 1.0 (RFC 4287).',
          content: { 'application/atom+xml': { schema: z.string() } },
        },
        '404': problem('No feed has this token (it was revoked, or never was).'),
      },
    },
  },
}

export function feedRoutes(services: WebServices): Router {
  const router = Router()
  function notFound(_req: Request, res: Response) {
    sendProblem(res, { status: 404, title: 'Not Found', detail: 'There is no feed at this address.' })
  }
  async function read(req: Request, res: Response) {
    const atom = await services.feeds.atom(String(req.params.token))
    if (!atom) return notFound(req, res)
    // The token is in the URL: no shared cache keeps it, nothing is indexed, no referrer carries it on.
    res
      .status(200)
      .type('application/atom+xml; charset=utf-8')
      .set({ 'Cache-Control': 'private, no-cache', 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' })
      .send(atom)
  }
  router.get('/feeds/:token.atom', read)
  router.all('/feeds/:token.atom', methodNotAllowed(['GET']))
  // Any other address under /feeds is no feed either, and says so the same way.
  router.all('/feeds/*rest', notFound)
  return router
}
