import { Router } from 'express'
import type { AppServices } from '#app/context.ts'
import { getAccount } from '#server/auth/accounts.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { principalOf } from '#server/http/api-auth.ts'

/** GET /api/me: who the presented key belongs to; handy to check a key works. */
export function meRoutes(services: AppServices): Router {
  const router = Router()
  router.get('/me', async (_req, res) => {
    const principal = principalOf(res)
    // A demo visitor's account row is written with its first run; until then it is still theirs.
    const { visitor } = principal
    const account =
      (await getAccount(services.db, principal.accountId)) ??
      (visitor ? { id: visitor.accountId, email: visitor.email, kind: 'demo' as const } : undefined)
    res.json({
      account: account && { id: account.id, email: account.email, kind: account.kind },
      auth: { via: principal.via, keyPrefix: principal.keyPrefix ?? null, demo: principal.demo },
    })
  })
  router.all('/me', methodNotAllowed(['GET']))
  return router
}
