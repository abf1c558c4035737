// Pages authenticate with a cookie, so a state-changing page request must come from our own pages:
// its Origin must be this site's, scheme and host: the one the request reached (the scheme as a
// trusted proxy forwards it) or PUBLIC_URL's. A page served over plain HTTP on the same host is
// another origin. (The API uses bearer keys, which browsers never send on their own.)
import type { RequestHandler } from 'express'
import { sendProblem } from '#server/http/problem.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function requireSameOrigin(publicUrl?: string): RequestHandler {
  const published = publicUrl ? new URL(publicUrl).origin : undefined
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const origin = req.get('origin')
    const host = req.get('host')
    const sent = origin && URL.canParse(origin) ? new URL(origin).origin : undefined
    const reached =
      host && URL.canParse(`${req.protocol}://${host}`) ? new URL(`${req.protocol}://${host}`).origin : undefined
    if (sent && (sent === reached || sent === published)) return next()
    sendProblem(res, {
      status: 403,
      title: 'Forbidden',
      detail: 'Cross-site request refused: a form on this site must be sent from this site (Origin header).',
    })
  }
}
