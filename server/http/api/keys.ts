// API keys of the calling account: list, create (the key is in this response only; at most
// API_KEYS_PER_ACCOUNT active ones), revoke.
import { Router } from 'express'
import { z } from 'zod'
import type { AppServices } from '#app/context.ts'
import {
  type ApiKeySummary,
  createAccountApiKey,
  KeyLimitError,
  listApiKeys,
  revokeApiKey,
} from '#server/auth/api-keys.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/storable-text.ts'

export const CreateKeySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name must be at most 100 characters')
    .refine(isStorableText, `name ${UNSTORABLE_TEXT_MESSAGE}`),
})

function presentKey(key: ApiKeySummary) {
  return {
    ...key,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

export function keysRoutes(services: AppServices): Router {
  const router = Router()

  function ownAccount(res: Parameters<Parameters<Router['get']>[1]>[1]) {
    const principal = principalOf(res)
    if (principal.demo) {
      throw new HttpProblem({
        status: 403,
        title: 'Forbidden',
        detail: 'The demo key cannot manage API keys. Sign up for your own account.',
      })
    }
    return principal.accountId
  }

  router.get('/keys', async (_req, res) => {
    const keys = await listApiKeys(services.db, ownAccount(res))
    res.json({ keys: keys.map(presentKey) })
  })

  router.post('/keys', async (req, res) => {
    const accountId = ownAccount(res)
    const { name } = parseInput(CreateKeySchema, req.body)
    try {
      const maxActive = services.config.API_KEYS_PER_ACCOUNT
      const { key, summary } = await createAccountApiKey(services.db, { accountId, name, maxActive })
      res.status(201).json({ key, ...presentKey(summary) })
    } catch (error) {
      if (!(error instanceof KeyLimitError)) throw error
      throw new HttpProblem({ status: 409, title: 'Conflict', detail: error.message })
    }
  })
  router.all('/keys', methodNotAllowed(['GET', 'POST']))

  router.delete('/keys/:prefix', async (req, res) => {
    const revoked = await revokeApiKey(services.db, req.params.prefix, ownAccount(res))
    if (!revoked) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no active API key with the prefix ${req.params.prefix}.`,
      })
    }
    services.apiKeys.forget(revoked.prefix)
    res.json(presentKey(revoked))
  })
  router.all('/keys/:prefix', methodNotAllowed(['DELETE']))
  return router
}
