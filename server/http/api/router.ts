// /api: JSON in (64 KiB at most), problem+json out, a bearer key on every endpoint but the OpenAPI document,
// the framework catalogue and the webhooks (which are signed instead, and read their bodies raw).
import { Router } from 'express'
import { briefsRoutes } from '#server/http/api/briefs.ts'
import { emailRoutes } from '#server/http/api/email.ts'
import { feedsRoutes } from '#server/http/api/feeds.ts'
import { frameworksRoutes } from '#server/http/api/frameworks.ts'
import { keysRoutes } from '#server/http/api/keys.ts'
import { mcpRoutes } from '#server/http/api/mcp.ts'
import { meRoutes } from '#server/http/api/me.ts'
import { memoryRoutes } from '#server/http/api/memory.ts'
import { openapiRoutes } from '#server/http/api/openapi.ts'
import { runEventsRoutes } from '#server/http/api/run-events.ts'
import { seriesRoutes } from '#server/http/api/series.ts'
import { webhookEndpointsRoutes } from '#server/http/api/webhook-endpoints.ts'
import { webhookRoutes } from '#server/http/api/webhooks.ts'
import { requireApiPrincipal } from '#server/http/api-auth.ts'
import { jsonBody } from '#server/http/json-body.ts'
import { sendProblem } from '#server/http/problem.ts'
import type { WebServices } from '#server/services.ts'

// Each router is mounted on its resource's prefix and its paths are relative to it: a request enters
// only the routers of its prefix, instead of testing every route of every router before its own (a
// GET of a run walked about thirty layers; its route was found in a fifth of its time, issue 21).
export function apiRouter(services: WebServices): Router {
  const router = Router()
  router.use('/webhooks', webhookRoutes(services))
  router.use(jsonBody())
  router.use('/openapi.json', openapiRoutes())
  router.use('/frameworks', frameworksRoutes())
  router.use(requireApiPrincipal(services))
  router.use('/briefs', briefsRoutes(services), runEventsRoutes(services))
  router.use('/series', seriesRoutes(services))
  router.use('/me', meRoutes(services))
  router.use('/keys', keysRoutes(services))
  router.use('/memory', memoryRoutes(services))
  router.use('/email', emailRoutes(services))
  router.use('/feeds', feedsRoutes(services))
  router.use('/webhooks', webhookEndpointsRoutes(services))
  router.use('/mcp', mcpRoutes(services))
  router.use((req, res) => {
    sendProblem(res, {
      status: 404,
      title: 'Not Found',
      detail: `There is no API endpoint ${req.method} ${req.originalUrl}.`,
    })
  })
  return router
}
