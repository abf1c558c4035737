// Pages authenticate with a cookie, so a state-changing page request must come from our own pages:
// its Origin must name this host. (The API uses bearer keys, which browsers never send on their own.)
import type { RequestHandler } from 'express'
import { sendProblem } from '#server/http/problem.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function requireSameOrigin(): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const origin = req.get('origin')
    const host = req.get('host')
    if (origin && host && URL.canParse(origin) && new URL(origin).host === host) return next()
    sendProblem(res, {
      status: 403,
      title: 'Forbidden',
      detail: 'Cross-site request refused: a form on this site must be sent from this site (Origin header).',
    })
  }
}
