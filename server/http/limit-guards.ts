// Rate-limit guards for endpoints. A refused request gets 429 with Retry-After and a problem body;
// an admitted one carries the RateLimit headers of every policy it passed.
import type { RequestHandler } from 'express'
import type { AppServices } from '#app/context.ts'
import { principalOf } from '#server/http/api-auth.ts'
import { clientIp } from '#server/http/client-ip.ts'
import { sendRateLimited, setRateLimitHeaders } from '#server/limits/http.ts'

/**
 * For endpoints that start a research run: with the demo key, its daily limit per IP; always, the
 * runs-per-hour limit per IP. A "use" of the demo key is a run it starts; reading results is free.
 */
export function limitRunStarts(services: Pick<AppServices, 'config' | 'limits'>): RequestHandler {
  return async (req, res, next) => {
    const ip = clientIp(req, services.config.TRUST_PROXY)
    const limiters = principalOf(res).demo ? [services.limits.demo, services.limits.runs] : [services.limits.runs]
    for (const limiter of limiters) {
      const decision = await limiter.check(ip)
      if (!decision.allowed) return sendRateLimited(res, decision)
      setRateLimitHeaders(res, decision)
    }
    next()
  }
}
