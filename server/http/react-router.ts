// Mounts the React Router app: the production build, or Vite's dev server with HMR.
import { createRequire } from 'node:module'
import { createRequestHandler } from '@react-router/express'
import express, { type Router } from 'express'
import type { ServerBuild } from 'react-router'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import { clientBuildDir, serverBuildPath } from '#server/http/app-build.ts'
import { clientIp } from '#server/http/client-ip.ts'
import type { WebServices } from '#server/services.ts'

// The request handler checks `context instanceof RouterContextProvider` against the copy of
// react-router that @react-router/express loads. Node's require gives us that same copy, even
// under a module runner (vitest) that would otherwise hand this file a second instance.
const { RouterContextProvider } = createRequire(import.meta.url)('react-router') as typeof import('react-router')

export type ReactRouterMount = { router: Router; close: () => Promise<void> }

// What loaders and actions read from the context. Until the pages call only services (issue 19),
// the object start.ts passes carries the infrastructure some still reach for; the cast goes when
// the context holds WebServices.

export async function mountReactRouter(services: WebServices): Promise<ReactRouterMount> {
  const router = express.Router()
  const development = services.config.NODE_ENV === 'development'
  let build: ServerBuild | (() => Promise<ServerBuild>)
  let close = async () => {}

  if (development) {
    const vite = await import('vite')
    const devServer = await vite.createServer({ server: { middlewareMode: true }, appType: 'custom' })
    router.use(devServer.middlewares)
    build = () => devServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
    close = () => devServer.close()
  } else {
    build = (await import(serverBuildPath)) as ServerBuild
    // Hashed file names: cache for a year. Everything else in build/client: an hour.
    router.use('/assets', express.static(`${clientBuildDir}/assets`, { immutable: true, maxAge: '1y', index: false }))
    router.use(express.static(clientBuildDir, { maxAge: '1h', index: false }))
  }

  router.use(
    createRequestHandler({
      build,
      mode: services.config.NODE_ENV,
      getLoadContext(req, res) {
        const context = new RouterContextProvider()
        context.set(servicesContext, services)
        context.set(requestInfoContext, {
          requestId: res.locals.requestId,
          nonce: res.locals.cspNonce,
          ip: clientIp(req, services.config.TRUST_PROXY),
        })
        return context
      },
    }),
  )
  return { router, close }
}
