// The Express app: request context and security headers first, then health, the API, and the
// React Router handler for every page. Unknown /api paths answer a problem, never a page.
import express from 'express'
import { apiRouter } from '#server/http/api/router.ts'
import type { DatabaseLiveness } from '#server/http/database-liveness.ts'
import { emailLinkRoutes } from '#server/http/email-links.ts'
import { feedRoutes } from '#server/http/feeds.ts'
import { healthRoutes } from '#server/http/health.ts'
import { oauthDiscoveryRoutes } from '#server/http/oauth-discovery.ts'
import { limitPageBodies } from '#server/http/page-body-limit.ts'
import { pageEventRoutes } from '#server/http/page-events.ts'
import { problemErrorHandler } from '#server/http/problem.ts'
import type { ReactRouterMount } from '#server/http/react-router.ts'
import { requestContext } from '#server/http/request-context.ts'
import { requireSameOrigin } from '#server/http/same-origin.ts'
import { securityHeaders } from '#server/http/security-headers.ts'
import type { WebServices } from '#server/services.ts'

export function createHttpApp(
  services: WebServices,
  options: { version: string; pages: ReactRouterMount; liveness: DatabaseLiveness },
) {
  const app = express()
  app.disable('x-powered-by')
  // req.protocol (and so the URL React Router sees) follows X-Forwarded-Proto only behind trusted proxies.
  app.set('trust proxy', services.config.TRUST_PROXY)
  app.use(requestContext(services.log))
  app.use(securityHeaders({ development: services.config.NODE_ENV === 'development' }))
  app.use(healthRoutes({ health: services.health, liveness: options.liveness, version: options.version }))

  app.use('/api', apiRouter(services))
  app.use(feedRoutes(services))
  app.use(pageEventRoutes(services))
  app.use(oauthDiscoveryRoutes())
  app.use(emailLinkRoutes(services))
  app.use(limitPageBodies())
  app.use(requireSameOrigin(services.config.PUBLIC_URL))
  app.use(options.pages.router)
  app.use(problemErrorHandler(services.log))
  return app
}
