import { Router } from 'express'
import { type Me, MeSchema } from '#server/accounts/contract.ts'
import { type ApiContract, json, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { principalOf, unauthorized } from '#server/http/api-auth.ts'
import type { WebServices } from '#server/services.ts'

export const meContract = {
  '/api/me': {
    get: {
      operationId: 'getMe',
      tags: ['account'],
      summary: 'The account and key you are calling with',
      responses: { '200': json('Who the key belongs to.', MeSchema.meta({ id: 'Me' })), '401': responses.unauthorized },
    },
  },
} satisfies ApiContract

/** GET /api/me: who the presented key belongs to; handy to check a key works. */
export function meRoutes(services: WebServices): Router {
  const router = Router()
  router.get('/', async (_req, res) => {
    const principal = principalOf(res)
    // A demo visitor's account row is written with its first run; until then it is still theirs.
    const { visitor } = principal
    const account =
      (await services.accounts.get(principal.accountId)) ??
      (visitor ? { id: visitor.accountId, email: visitor.email, kind: 'demo' as const } : undefined)
    // The key passed the check (its verification is cached for a while) but its account was deleted since.
    if (!account) return unauthorized(res, 'The account of this API key no longer exists.', true)
    const me: Me = {
      account: { id: account.id, email: account.email, kind: account.kind },
      auth: { via: principal.via, keyPrefix: principal.keyPrefix ?? null, demo: principal.demo },
    }
    reply(res, meContract['/api/me'].get, '200', me)
  })
  router.all('/', methodNotAllowed(['GET']))
  return router
}
