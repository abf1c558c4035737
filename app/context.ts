// What the Express server hands to loaders and actions through React Router's context.
// Stateful things (the pool, the job system) are created once by the server and reach the
// app only through here: the route modules are bundled by Vite, so a module-level singleton
// in server/ would exist twice. The keys live on globalThis for the same reason: the server
// and the bundle each load this file, and both must use the same key objects.
import { createContext, type RouterContext } from 'react-router'
import type { Db } from '#db/database.ts'
import type { Account } from '#server/auth/accounts.ts'
import type { ApiKeyVerifier } from '#server/auth/api-keys.ts'
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { MemoryContext } from '#server/memory/store.ts'
import type { RunOutcome } from '#server/research/run-end.ts'
import type { WebServices } from '#server/services.ts'

/**
 * The web process's services (server/services.ts). Until every surface calls services (issue 19),
 * the infrastructure some still reach for rides along; it goes when the last of them moves.
 */
export type AppServices = WebServices & {
  db: Db
  jobs: Jobs
  memory: MemoryContext
  apiKeys: ApiKeyVerifier
  events: EventHub
  streams: OpenStreams
  endRun: (runId: string, outcome: RunOutcome) => Promise<boolean>
}
/** Per request: its id, the CSP nonce, and the client address (as TRUST_PROXY allows) for rate limits. */
export type RequestInfo = {
  requestId: string
  nonce: string
  ip: string
  /** The session's account, looked up once per request however many loaders ask (see session.server.ts). */
  account?: Promise<Account | undefined>
}

type Keys = { services: RouterContext<AppServices>; request: RouterContext<RequestInfo> }
const store = globalThis as typeof globalThis & { __sextantContextKeys?: Keys }
store.__sextantContextKeys ??= { services: createContext<AppServices>(), request: createContext<RequestInfo>() }

export const servicesContext = store.__sextantContextKeys.services
export const requestInfoContext = store.__sextantContextKeys.request
