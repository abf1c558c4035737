// API keys of the calling account: list, create (the key is in this response only; at most
// API_KEYS_PER_ACCOUNT active ones), revoke.
import { Router } from 'express'
import { z } from 'zod'
import {
  ApiKeySchema,
  type ApiKeySummary,
  type ApiKeyView,
  type CreatedApiKey,
  CreatedApiKeySchema,
  KeyLimitError,
} from '#server/accounts/contract.ts'
import { type ApiContract, bodyProblems, json, problem, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { noBody, parseInput } from '#server/http/api/validation.ts'
import { memberAccountId } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'

const CreateKeySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'name is required')
    .max(100, 'name must be at most 100 characters')
    .refine(isStorableText, `name ${UNSTORABLE_TEXT_MESSAGE}`),
})
const CreateKeyInput = CreateKeySchema.meta({ id: 'CreateKeyInput' })
const ApiKey = ApiKeySchema.meta({ id: 'ApiKey' })
const KeyPrefix = z.string().meta({ description: 'The key prefix shown in key lists.', param: { id: 'KeyPrefix' } })

export const keysContract = {
  '/api/keys': {
    get: {
      operationId: 'listKeys',
      tags: ['account'],
      summary: 'Your API keys, never their secrets',
      responses: {
        '200': json(
          'Every key of the account, revoked ones included.',
          z.object({ keys: z.array(ApiKey) }).meta({ id: 'ApiKeyList' }),
        ),
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
      },
    },
    post: {
      operationId: 'createKey',
      tags: ['account'],
      summary: 'Create an API key',
      requestBody: { required: true, content: { 'application/json': { schema: CreateKeyInput } } },
      responses: {
        '201': json(
          'The new key; `key` is shown in this response only.',
          CreatedApiKeySchema.meta({ id: 'CreatedApiKey' }),
        ),
        '400': responses.badRequest,
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
        '409': problem('The account has as many active API keys as it may (API_KEYS_PER_ACCOUNT); revoke one first.'),
        ...bodyProblems,
      },
    },
  },
  '/api/keys/{prefix}': {
    delete: {
      operationId: 'revokeKey',
      tags: ['account'],
      summary: 'Revoke an API key',
      description:
        'It stops working at once on every instance (they hear of it through Postgres; one that could not, within 10 s), ' +
        'and its open event streams and MCP SSE sessions are closed.',
      requestParams: { path: z.object({ prefix: KeyPrefix }) },
      responses: {
        '200': json('The revoked key.', ApiKey),
        '401': responses.unauthorized,
        '403': responses.demoKeyForbidden,
        '404': problem('You have no active key with this prefix.'),
      },
    },
  },
} satisfies ApiContract

function presentKey(key: ApiKeySummary): ApiKeyView {
  return {
    ...key,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

export function keysRoutes(services: WebServices): Router {
  const router = Router()

  router.get('/', async (_req, res) => {
    const keys = await services.keys.list(memberAccountId(res, 'manage API keys'))
    reply(res, keysContract['/api/keys'].get, '200', { keys: keys.map(presentKey) })
  })

  router.post('/', async (req, res) => {
    const accountId = memberAccountId(res, 'manage API keys')
    const { name } = parseInput(CreateKeySchema, req.body)
    try {
      const { key, summary } = await services.keys.create(accountId, name)
      const created: CreatedApiKey = { key, ...presentKey(summary) }
      reply(res, keysContract['/api/keys'].post, '201', created)
    } catch (error) {
      if (!(error instanceof KeyLimitError)) throw error
      throw new HttpProblem({ status: 409, title: 'Conflict', detail: error.message })
    }
  })
  router.all('/', methodNotAllowed(['GET', 'POST']))

  router.delete('/:prefix', noBody, async (req, res) => {
    const revoked = await services.keys.revoke(req.params.prefix, memberAccountId(res, 'manage API keys'))
    if (!revoked) {
      throw new HttpProblem({
        status: 404,
        title: 'Not Found',
        detail: `You have no active API key with the prefix ${req.params.prefix}.`,
      })
    }
    reply(res, keysContract['/api/keys/{prefix}'].delete, '200', presentKey(revoked))
  })
  router.all('/:prefix', methodNotAllowed(['DELETE']))
  return router
}
