// MCP clients (mcp-remote, Claude Desktop) that get a 401 look for OAuth: they read
// /.well-known/oauth-protected-resource, .../oauth-authorization-server or openid-configuration, and
// then POST /register for dynamic client registration. Sextant has no OAuth, only API keys; each of
// those answers a JSON 404 that says so, so the client reports that a bearer token is needed instead
// of dying on a page (the CSRF check refuses the cross-site POST /register with 403).
import { Router } from 'express'
import { sendProblem } from '#server/http/problem.ts'

const OAUTH_PATHS = /^\/(\.well-known\/(oauth-[\w-]+|openid-configuration)(\/.*)?|register)$/

export function oauthDiscoveryRoutes(): Router {
  const router = Router()
  router.all(OAUTH_PATHS, (_req, res) => {
    sendProblem(res, {
      status: 404,
      title: 'Not Found',
      detail:
        'Sextant does not offer OAuth. Send an API key instead: Authorization: Bearer <API key> (create one at /dashboard/keys).',
    })
  })
  return router
}
