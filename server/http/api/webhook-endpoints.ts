// /api/webhooks/endpoints and /api/webhooks/secret: where the account's signed webhook events go
// (outbound; /api/webhooks/slack and /github are the inbound ones, signed by the platform and
// mounted before the key check). A secret is shown once: when the endpoint is created or rotated.
import { Router } from 'express'
import { z } from 'zod'
import { type ApiContract, bodyProblems, json, problem, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { noBody, parseInput } from '#server/http/api/validation.ts'
import { memberAccountId } from '#server/http/api-auth.ts'
import { HttpProblem } from '#server/http/problem.ts'
import {
  AccountWebhookSecretSchema,
  CreatedWebhookEndpointSchema,
  presentEndpoint,
  WebhookEndpointViewSchema,
  WebhookEventTypeSchema,
} from '#server/notify/contract.ts'
import type { WebServices } from '#server/services.ts'
import { WEBHOOK_EVENT_TYPES } from '#server/vocabulary/notify.ts'
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '#server/vocabulary/storable-text.ts'

const CreateEndpointSchema = z.strictObject({
  url: z.string().trim().min(1, 'url is required').max(2000, 'url must be at most 2000 characters'),
  events: z
    .array(WebhookEventTypeSchema)
    .min(1, 'events must name at least one event type')
    .transform((events) => [...new Set(events)])
    .optional()
    .describe(`The event types to send; default all: ${WEBHOOK_EVENT_TYPES.join(', ')}.`),
  description: z
    .string()
    .trim()
    .min(1)
    .max(200, 'description must be at most 200 characters')
    .refine(isStorableText, `description ${UNSTORABLE_TEXT_MESSAGE}`)
    .optional(),
})

const Endpoint = WebhookEndpointViewSchema.meta({ id: 'WebhookEndpoint' })
const Created = CreatedWebhookEndpointSchema.meta({ id: 'CreatedWebhookEndpoint' })
const EndpointId = z.uuid().meta({ description: 'The endpoint id.', param: { id: 'WebhookEndpointId' } })
const endpointPath = { path: z.object({ endpointId: EndpointId }) }
const demoForbidden = problem('The demo key cannot manage webhooks.')
const AccountSecret = AccountWebhookSecretSchema.meta({ id: 'AccountWebhookSecret' })

export const webhookEndpointsContract = {
  '/api/webhooks/endpoints': {
    get: {
      operationId: 'listWebhookEndpoints',
      tags: ['webhooks'],
      summary: 'Your webhook endpoints, never their secrets',
      responses: {
        '200': json(
          'Every endpoint, with its state and, when disabled, why.',
          z.object({ endpoints: z.array(Endpoint) }).meta({ id: 'WebhookEndpointList' }),
        ),
        '401': responses.unauthorized,
        '403': demoForbidden,
      },
    },
    post: {
      operationId: 'createWebhookEndpoint',
      tags: ['webhooks'],
      summary: 'Register a webhook endpoint',
      description:
        'Events are POSTed as JSON, signed under the Standard Webhooks scheme (webhook-id, webhook-timestamp, ' +
        'webhook-signature) with the endpoint\u2019s secret. The URL must be https and resolve to public addresses only.',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: CreateEndpointSchema.meta({ id: 'CreateWebhookEndpointInput' }) } },
      },
      responses: {
        '201': json('The endpoint; `secret` is shown in this answer only.', Created),
        '400': problem('The body is not valid, or the URL may not receive webhooks (the detail says why).'),
        '401': responses.unauthorized,
        '403': demoForbidden,
        '409': problem('The account has as many endpoints as it may; delete one first.'),
        ...bodyProblems,
      },
    },
  },
  '/api/webhooks/endpoints/{endpointId}': {
    delete: {
      operationId: 'deleteWebhookEndpoint',
      tags: ['webhooks'],
      summary: 'Delete a webhook endpoint (events still owed to it are dropped)',
      requestParams: endpointPath,
      responses: {
        '204': { description: 'Deleted.' },
        '401': responses.unauthorized,
        '403': demoForbidden,
        '404': responses.notFound,
      },
    },
  },
  '/api/webhooks/endpoints/{endpointId}/rotate': {
    post: {
      operationId: 'rotateWebhookEndpointSecret',
      tags: ['webhooks'],
      summary: 'Give an endpoint a new signing secret, in force at once',
      requestParams: endpointPath,
      responses: {
        '200': json('The endpoint; `secret` is the new one, shown in this answer only.', Created),
        '401': responses.unauthorized,
        '403': demoForbidden,
        '404': responses.notFound,
      },
    },
  },
  '/api/webhooks/secret': {
    get: {
      operationId: 'getAccountWebhookSecret',
      tags: ['webhooks'],
      summary: 'The secret that signs events sent to a brief\u2019s webhookUrl (made on first need)',
      responses: {
        '200': json('The account\u2019s signing secret.', AccountSecret),
        '401': responses.unauthorized,
        '403': demoForbidden,
      },
    },
  },
  '/api/webhooks/secret/rotate': {
    post: {
      operationId: 'rotateAccountWebhookSecret',
      tags: ['webhooks'],
      summary: 'A new signing secret for briefs\u2019 webhookUrl, in force at once',
      responses: {
        '200': json('The new secret.', AccountSecret),
        '401': responses.unauthorized,
        '403': demoForbidden,
      },
    },
  },
} satisfies ApiContract

function endpointNotFound(id: string): HttpProblem {
  return new HttpProblem({ status: 404, title: 'Not Found', detail: `You have no webhook endpoint with the id ${id}.` })
}

export function webhookEndpointsRoutes(services: WebServices): Router {
  const router = Router()
  const { webhooks } = services
  const validId = (id: string) => z.uuid().safeParse(id).success

  router.get('/endpoints', async (_req, res) => {
    const endpoints = await webhooks.endpoints.list(memberAccountId(res, 'manage webhooks'))
    reply(res, webhookEndpointsContract['/api/webhooks/endpoints'].get, '200', {
      endpoints: endpoints.map(presentEndpoint),
    })
  })
  router.post('/endpoints', async (req, res) => {
    const accountId = memberAccountId(res, 'manage webhooks')
    const input = parseInput(CreateEndpointSchema, req.body)
    const outcome = await webhooks.endpoints.create(accountId, {
      ...input,
      events: input.events ?? [...WEBHOOK_EVENT_TYPES],
    })
    if (!outcome.ok) {
      const status = outcome.reason === 'limit' ? 409 : 400
      throw new HttpProblem({ status, title: status === 409 ? 'Conflict' : 'Bad Request', detail: outcome.message })
    }
    reply(res, webhookEndpointsContract['/api/webhooks/endpoints'].post, '201', {
      ...presentEndpoint(outcome.endpoint),
      secret: outcome.secret,
    })
  })
  router.all('/endpoints', methodNotAllowed(['GET', 'POST']))

  router.delete('/endpoints/:endpointId', noBody, async (req, res) => {
    const accountId = memberAccountId(res, 'manage webhooks')
    const { endpointId } = req.params
    if (!validId(endpointId) || !(await webhooks.endpoints.remove(accountId, endpointId)))
      throw endpointNotFound(endpointId)
    res.status(204).end()
  })
  router.all('/endpoints/:endpointId', methodNotAllowed(['DELETE']))

  router.post('/endpoints/:endpointId/rotate', noBody, async (req, res) => {
    const accountId = memberAccountId(res, 'manage webhooks')
    const { endpointId } = req.params
    const rotated = validId(endpointId) ? await webhooks.endpoints.rotate(accountId, endpointId) : undefined
    if (!rotated) throw endpointNotFound(endpointId)
    reply(res, webhookEndpointsContract['/api/webhooks/endpoints/{endpointId}/rotate'].post, '200', {
      ...presentEndpoint(rotated.endpoint),
      secret: rotated.secret,
    })
  })
  router.all('/endpoints/:endpointId/rotate', methodNotAllowed(['POST']))

  router.get('/secret', async (_req, res) => {
    const secret = await webhooks.accountSecret(memberAccountId(res, 'manage webhooks'))
    reply(res, webhookEndpointsContract['/api/webhooks/secret'].get, '200', { secret })
  })
  router.all('/secret', methodNotAllowed(['GET']))
  router.post('/secret/rotate', noBody, async (_req, res) => {
    const secret = await webhooks.rotateAccountSecret(memberAccountId(res, 'manage webhooks'))
    reply(res, webhookEndpointsContract['/api/webhooks/secret/rotate'].post, '200', { secret })
  })
  router.all('/secret/rotate', methodNotAllowed(['POST']))
  return router
}
