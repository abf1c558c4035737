// What the Express server hands to loaders and actions through React Router's context: the web
// process's services (server/services.ts), created once by the server, and per-request facts. They
// reach the app only through here: the route modules are bundled by Vite, so a module-level
// singleton in server/ would exist twice. The keys live on globalThis for the same reason: the server
// and the bundle each load this file, and both must use the same key objects.
import { createContext, type RouterContext } from 'react-router'
import type { Account } from '#server/accounts/contract.ts'
import type { WebServices } from '#server/services.ts'

/** Per request: its id, the CSP nonce, and the client address (as TRUST_PROXY allows) for rate limits. */
export type RequestInfo = {
  requestId: string
  nonce: string
  ip: string
  /** The session's account, looked up once per request however many loaders ask (see session.server.ts). */
  account?: Promise<Account | undefined>
}

type Keys = { services: RouterContext<WebServices>; request: RouterContext<RequestInfo> }
const store = globalThis as typeof globalThis & { __sextantContextKeys?: Keys }
store.__sextantContextKeys ??= { services: createContext<WebServices>(), request: createContext<RequestInfo>() }

export const servicesContext = store.__sextantContextKeys.services
export const requestInfoContext = store.__sextantContextKeys.request
