// POST /api/webhooks/slack and /api/webhooks/github: no API key; each request proves it comes from
// the platform by an HMAC signature over the raw body, so these routes read the body raw (1 MiB at
// most) and sit before the API's JSON parser and key check. They record and enqueue, then answer.
import express, { type Request, Router } from 'express'
import { z } from 'zod'
import {
  IssueCommentEventSchema,
  SlackChallengeSchema,
  SlackEventCallbackSchema,
  SlackUrlVerificationSchema,
  WebhookOutcomeSchema,
} from '#server/chat/contract.ts'
import { type ApiContract, json, problem, reply, responses } from '#server/http/api/contract.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { HttpProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'

const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024

/** The platforms sign their requests instead of presenting an API key. */
export const webhookSecuritySchemes = {
  slackSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Slack-Signature',
    description:
      '`v0=` + HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<body>` with SLACK_SIGNING_SECRET; the timestamp within five minutes.',
  },
  githubSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Hub-Signature-256',
    description: '`sha256=` + HMAC-SHA256 of the body with GITHUB_WEBHOOK_SECRET.',
  },
} as const

const WebhookOutcome = WebhookOutcomeSchema.meta({ id: 'WebhookOutcome' })

function webhookResponses(variable: string) {
  return {
    '400': responses.badRequest,
    '401': responses.signatureRejected,
    '413': problem(`The body is larger than ${WEBHOOK_BODY_LIMIT_BYTES / 1024 / 1024} MiB.`),
    '503': problem(`${variable} is not set on this server.`),
  }
}

function payload(description: string) {
  return { required: true, content: { 'application/json': { schema: { type: 'object' as const, description } } } }
}

export const webhooksContract = {
  '/api/webhooks/slack': {
    post: {
      operationId: 'slackEvents',
      tags: ['webhooks'],
      summary: 'Slack Events API: url_verification, and app_mention events that start runs',
      description:
        "Signed with the Slack app's signing secret (v0, within five minutes). An `app_mention` from a person in " +
        'a linked workspace starts a run; the replies go to its thread. Answers at once; retries of an ' +
        '`event_id` are acknowledged as duplicates and start nothing.',
      security: [{ slackSignature: [] }],
      requestBody: payload('A Slack Events API payload.'),
      responses: {
        '200': json(
          '`{ challenge }` for url_verification; otherwise what happened to the event.',
          z.union([WebhookOutcome, SlackChallengeSchema]),
        ),
        ...webhookResponses('SLACK_SIGNING_SECRET'),
      },
    },
  },
  '/api/webhooks/github': {
    post: {
      operationId: 'githubEvents',
      tags: ['webhooks'],
      summary: 'GitHub webhooks: a pull request comment saying "@sextant research <topic>" starts a run',
      description:
        'Signed with the webhook secret (`X-Hub-Signature-256`). Only `issue_comment` events (action `created`, on a ' +
        'pull request, by a person) of a linked repository start a run; the result is posted as a comment. ' +
        'A redelivery of an `X-GitHub-Delivery` starts nothing.',
      security: [{ githubSignature: [] }],
      requestParams: {
        header: z.object({ 'X-GitHub-Event': z.string(), 'X-GitHub-Delivery': z.string() }),
      },
      requestBody: payload('A GitHub webhook payload.'),
      responses: {
        '200': json('What happened to the event.', WebhookOutcome),
        ...webhookResponses('GITHUB_WEBHOOK_SECRET'),
      },
    },
  },
} satisfies ApiContract

function notConfigured(platform: string, variable: string): HttpProblem {
  return new HttpProblem({
    status: 503,
    title: 'Service Unavailable',
    detail: `${platform} is not set up on this server: set ${variable} (see docs/reference/configuration.md).`,
  })
}

function rejected(reason: string): HttpProblem {
  return new HttpProblem({ status: 401, title: 'Unauthorized', detail: `The request is not signed: ${reason}` })
}

function rawBody(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    throw new HttpProblem({ status: 400, title: 'Bad Request', detail: 'The request body is not valid JSON.' })
  }
}

const slack = webhooksContract['/api/webhooks/slack'].post
const github = webhooksContract['/api/webhooks/github'].post

export function webhookRoutes(services: WebServices): Router {
  const router = Router()
  const raw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES })

  router.post('/slack', raw, async (req, res) => {
    const { verify } = services.chat.slack
    if (!verify) throw notConfigured('Slack', 'SLACK_SIGNING_SECRET')
    const body = rawBody(req)
    const check = verify({ body, header: (name) => req.get(name) })
    if (!check.ok) throw rejected(check.reason)
    const payload = parseJson(body) as { type?: unknown }
    if (payload?.type === 'url_verification') {
      const { challenge } = parseInput(SlackUrlVerificationSchema, payload, 'Slack url_verification')
      reply(res, slack, '200', { challenge })
      return
    }
    if (payload?.type !== 'event_callback') {
      reply(res, slack, '200', { status: 'ignored', reason: `payload ${String(payload?.type)}` })
      return
    }
    const envelope = parseInput(SlackEventCallbackSchema, payload, 'Slack event')
    reply(res, slack, '200', await services.chat.slack.receive(envelope))
  })
  router.all('/slack', methodNotAllowed(['POST']))

  router.post('/github', raw, async (req, res) => {
    const { verify } = services.chat.github
    if (!verify) throw notConfigured('GitHub', 'GITHUB_WEBHOOK_SECRET')
    const body = rawBody(req)
    const check = verify({ body, header: (name) => req.get(name) })
    if (!check.ok) throw rejected(check.reason)
    const event = req.get('x-github-event')
    const deliveryId = req.get('x-github-delivery')
    if (!deliveryId || !/^[\w-]{1,100}$/.test(deliveryId)) {
      throw new HttpProblem({ status: 400, title: 'Bad Request', detail: 'X-GitHub-Delivery is missing.' })
    }
    if (event !== 'issue_comment') {
      reply(res, github, '200', { status: 'ignored', reason: `event ${event ?? '(none)'}` })
      return
    }
    const comment = parseInput(IssueCommentEventSchema, parseJson(body), 'GitHub issue_comment event')
    reply(res, github, '200', await services.chat.github.receive(deliveryId, comment))
  })
  router.all('/github', methodNotAllowed(['POST']))
  return router
}
