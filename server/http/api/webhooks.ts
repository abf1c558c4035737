// POST /api/webhooks/slack and /api/webhooks/github: no API key; each request proves it comes from
// the platform by an HMAC signature over the raw body, so these routes read the body raw (1 MiB at
// most) and sit before the API's JSON parser and key check. They record and enqueue, then answer.
import express, { type Request, Router } from 'express'
import type { AppServices } from '#app/context.ts'
import { methodNotAllowed } from '#server/http/api/method-not-allowed.ts'
import { parseInput } from '#server/http/api/validation.ts'
import { HttpProblem } from '#server/http/problem.ts'
import { IssueCommentEventSchema, receiveGithubComment } from '#server/integrations/github/events.ts'
import { verifyGithubSignature } from '#server/integrations/github/verify.ts'
import {
  receiveSlackEvent,
  SlackEventCallbackSchema,
  SlackUrlVerificationSchema,
} from '#server/integrations/slack/events.ts'
import { verifySlackSignature } from '#server/integrations/slack/verify.ts'

export const WEBHOOK_BODY_LIMIT_BYTES = 1024 * 1024

function notConfigured(platform: string, variable: string): HttpProblem {
  return new HttpProblem({
    status: 503,
    title: 'Service Unavailable',
    detail: `${platform} is not set up on this server: set ${variable} (see README.md).`,
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

export function webhookRoutes(services: AppServices): Router {
  const router = Router()
  const raw = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES })

  router.post('/webhooks/slack', raw, async (req, res) => {
    const secret = services.config.SLACK_SIGNING_SECRET
    if (!secret) throw notConfigured('Slack', 'SLACK_SIGNING_SECRET')
    const body = rawBody(req)
    const check = verifySlackSignature({
      secret,
      body,
      timestamp: req.get('x-slack-request-timestamp'),
      signature: req.get('x-slack-signature'),
      now: new Date(),
    })
    if (!check.ok) throw rejected(check.reason)
    const payload = parseJson(body) as { type?: unknown }
    if (payload?.type === 'url_verification') {
      const { challenge } = parseInput(SlackUrlVerificationSchema, payload, 'Slack url_verification')
      res.json({ challenge })
      return
    }
    if (payload?.type !== 'event_callback') {
      res.json({ status: 'ignored', reason: `payload ${String(payload?.type)}` })
      return
    }
    const envelope = parseInput(SlackEventCallbackSchema, payload, 'Slack event')
    res.json(await receiveSlackEvent({ ...services, ring: services.memory.ring }, envelope))
  })
  router.all('/webhooks/slack', methodNotAllowed(['POST']))

  router.post('/webhooks/github', raw, async (req, res) => {
    const secret = services.config.GITHUB_WEBHOOK_SECRET
    if (!secret) throw notConfigured('GitHub', 'GITHUB_WEBHOOK_SECRET')
    const body = rawBody(req)
    const check = verifyGithubSignature({ secret, body, signature: req.get('x-hub-signature-256') })
    if (!check.ok) throw rejected(check.reason)
    const event = req.get('x-github-event')
    const deliveryId = req.get('x-github-delivery')
    if (!deliveryId || !/^[\w-]{1,100}$/.test(deliveryId)) {
      throw new HttpProblem({ status: 400, title: 'Bad Request', detail: 'X-GitHub-Delivery is missing.' })
    }
    if (event !== 'issue_comment') {
      res.json({ status: 'ignored', reason: `event ${event ?? '(none)'}` })
      return
    }
    const comment = parseInput(IssueCommentEventSchema, parseJson(body), 'GitHub issue_comment event')
    res.json(await receiveGithubComment({ ...services, ring: services.memory.ring }, deliveryId, comment))
  })
  router.all('/webhooks/github', methodNotAllowed(['POST']))
  return router
}
