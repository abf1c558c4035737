// The request -> principal step of the REST API (and MCP): a bearer API key, or, only under local
// development auth and only from loopback, no header at all for the local account.
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import type { AppServices } from '#app/context.ts'
import { isLoopback } from '#server/http/client-ip.ts'
import { sendProblem } from '#server/http/problem.ts'

export type ApiPrincipal = {
  accountId: string
  via: 'api_key' | 'local_dev'
  keyId?: string
  keyPrefix?: string
  /** Called with the public demo key: work it starts counts against the demo limit. */
  demo: boolean
}

function unauthorized(res: Response, detail: string, tokenSent: boolean) {
  const challenge = tokenSent ? 'Bearer realm="sextant", error="invalid_token"' : 'Bearer realm="sextant"'
  res.setHeader('WWW-Authenticate', challenge)
  sendProblem(res, { status: 401, title: 'Unauthorized', detail })
}

export function requireApiPrincipal(services: AppServices): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization')
    if (header === undefined) {
      if (services.config.LOCAL_DEV_AUTH && services.localAccountId && isLoopback(req.socket.remoteAddress)) {
        res.locals.principal = {
          accountId: services.localAccountId,
          via: 'local_dev',
          demo: false,
        } satisfies ApiPrincipal
        return next()
      }
      return unauthorized(
        res,
        'This endpoint needs an API key: send the header Authorization: Bearer <API key>.',
        false,
      )
    }
    const match = /^Bearer +(\S+)$/i.exec(header.trim())
    if (!match) return unauthorized(res, 'The Authorization header must be "Bearer <API key>".', true)
    const key = await services.apiKeys.verify(match[1] as string)
    if (!key) return unauthorized(res, 'The API key is not valid: it is unknown, revoked or mistyped.', true)
    res.locals.principal = {
      accountId: key.accountId,
      via: 'api_key',
      keyId: key.keyId,
      keyPrefix: key.keyPrefix,
      demo: key.keyKind === 'demo',
    } satisfies ApiPrincipal
    next()
  }
}

export function principalOf(res: Response): ApiPrincipal {
  const principal = res.locals.principal as ApiPrincipal | undefined
  if (!principal) throw new Error('requireApiPrincipal must run before this handler')
  return principal
}
