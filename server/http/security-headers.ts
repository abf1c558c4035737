import type { Response } from 'express'
import helmet from 'helmet'

/** CSP with a per-request nonce for React Router's inline scripts; the rest is helmet's defaults. */
export function securityHeaders(options: { development: boolean }) {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'strict-dynamic'", nonce],
        // Vite injects styles as <style> tags in development.
        'style-src': options.development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': options.development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  })
}
