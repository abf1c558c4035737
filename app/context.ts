// What the Express server hands to loaders and actions through React Router's context.
// Stateful things (the pool, the job system) are created once by the server and reach the
// app only through here: the route modules are bundled by Vite, so a module-level singleton
// in server/ would exist twice. The keys live on globalThis for the same reason: the server
// and the bundle each load this file, and both must use the same key objects.
import { createContext, type RouterContext } from 'react-router'
import type { Db } from '#db/database.ts'
import type { Account } from '#server/auth/accounts.ts'
import type { ApiKeyVerifier } from '#server/auth/api-keys.ts'
import type { LoginThrottle } from '#server/auth/login-throttle.ts'
import type { Config } from '#server/config.ts'
import type { EventHub } from '#server/events/hub.ts'
import type { OpenStreams } from '#server/events/open-streams.ts'
import type { Jobs } from '#server/jobs/boss.ts'
import type { Limits } from '#server/limits/policies.ts'
import type { Logger } from '#server/logger.ts'
import type { MemoryContext } from '#server/memory/store.ts'
import type { RunOutcome } from '#server/research/run-end.ts'
import type { RunDeadlines } from '#server/research/start-run.ts'

export type AppServices = {
  config: Config
  db: Db
  jobs: Jobs
  log: Logger
  apiKeys: ApiKeyVerifier
  limits: Limits
  /** Throttles logins and sign-ups (per address and per account). */
  logins: LoginThrottle
  memory: MemoryContext
  events: EventHub
  /** This process's open event streams, counted and closed by session or key. */
  streams: OpenStreams
  deadlines: RunDeadlines
  /** Ends a running run with all its end owes (a chat reply): composed once, in server/start.ts. */
  endRun: (runId: string, outcome: RunOutcome) => Promise<boolean>
  /** The account of local development auth, when there is one (see server/auth/provision.ts). */
  localAccountId: string | undefined
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
