// The request -> principal step of the REST API (and MCP): a bearer API key, or, only under local
// development auth, from loopback and to a loopback name, no header at all for the local account.
import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { type DemoVisitor, KeyCheckBudgetError } from '#server/accounts/contract.ts'
import { clientIp, isLoopback, isLoopbackHost } from '#server/http/client-ip.ts'
import { HttpProblem, sendProblem } from '#server/http/problem.ts'
import { describeWait } from '#server/limits/refusal.ts'
import type { Requester } from '#server/runs/service.ts'
import type { WebServices } from '#server/services.ts'

export type ApiPrincipal = {
  /** Whose data the request reads and writes; with the demo key, the visitor account of the address. */
  accountId: string
  via: 'api_key' | 'local_dev'
  keyId?: string
  keyPrefix?: string
  /** Called with the public demo key: work it starts counts against the demo limit. */
  demo: boolean
  /** With the demo key: the caller's visitor account, written when its first run starts. */
  visitor?: DemoVisitor
  /** The client address, as TRUST_PROXY allows. */
  address: string
  /** The server's own local account: a refusal may name the setting that changes a limit. */
  operator: boolean
}

/** 401 with the Bearer challenge; `tokenSent` says the key itself was refused. */
export function unauthorized(res: Response, detail: string, tokenSent: boolean) {
  const challenge = tokenSent ? 'Bearer realm="sextant", error="invalid_token"' : 'Bearer realm="sextant"'
  res.setHeader('WWW-Authenticate', challenge)
  sendProblem(res, { status: 401, title: 'Unauthorized', detail })
}

/** What the principal step needs: settings, the key check, and the local account. */
type AuthServices = Pick<WebServices, 'config' | 'accounts' | 'keys' | 'localAccountId'>

/**
 * Local development auth: the flag, a loopback socket, and a Host that names loopback. The last
 * keeps a web page that rebinds its own name to 127.0.0.1 from acting as the local account.
 */
function localDevAccount(services: AuthServices, req: Request): string | undefined {
  if (!services.config.LOCAL_DEV_AUTH || !services.localAccountId) return undefined
  if (!isLoopback(req.socket.remoteAddress) || !isLoopbackHost(req.get('host'))) return undefined
  return services.localAccountId
}

export function requireApiPrincipal(services: AuthServices): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const address = clientIp(req, services.config.TRUST_PROXY)
    const header = req.get('authorization')
    if (header === undefined) {
      const local = localDevAccount(services, req)
      if (local) {
        res.locals.principal = {
          accountId: local,
          via: 'local_dev',
          demo: false,
          address,
          operator: true,
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
    let key: Awaited<ReturnType<AuthServices['keys']['verify']>>
    try {
      key = await services.keys.verify(match[1] as string, address)
    } catch (error) {
      if (!(error instanceof KeyCheckBudgetError)) throw error
      res.setHeader('Retry-After', String(error.retryAfterSeconds))
      return sendProblem(res, {
        status: 429,
        title: 'Too Many Requests',
        type: 'https://sextant.dev/problems/rate-limited',
        detail: `Too many API keys checked from this address at once or this minute. Try again in ${describeWait(error.retryAfterSeconds)}.`,
        retryAfterSeconds: error.retryAfterSeconds,
      })
    }
    if (!key) return unauthorized(res, 'The API key is not valid: it is unknown, revoked or mistyped.', true)
    const demo = key.keyKind === 'demo'
    const visitor = demo ? services.accounts.visitor(address) : undefined
    res.locals.principal = {
      accountId: visitor?.accountId ?? key.accountId,
      via: 'api_key',
      keyId: key.keyId,
      keyPrefix: key.keyPrefix,
      demo,
      visitor,
      address,
      operator: key.accountId === services.localAccountId,
    } satisfies ApiPrincipal
    next()
  }
}

export function principalOf(res: Response): ApiPrincipal {
  const principal = res.locals.principal as ApiPrincipal | undefined
  if (!principal) throw new Error('requireApiPrincipal must run before this handler')
  return principal
}

/**
 * The caller's own account, for what only an account of one's own may do: the demo key is shared
 * by every visitor, so it gets a 403 naming what it cannot do (`action`, e.g. "manage API keys").
 */
export function memberAccountId(res: Response, action: string): string {
  const principal = principalOf(res)
  if (principal.demo) {
    throw new HttpProblem({
      status: 403,
      title: 'Forbidden',
      detail: `The demo key cannot ${action}. Sign up for your own account.`,
    })
  }
  return principal.accountId
}

/** Who is asking to start a run, for admission: a demo key caller is a visitor of its address. */
export function requesterOf(principal: ApiPrincipal): Requester {
  return principal.demo
    ? { kind: 'visitor', address: principal.address }
    : { kind: 'member', address: principal.address, operator: principal.operator }
}
