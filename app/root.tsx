import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { getAccount } from '#app/session.server.ts'
import type { Route } from './+types/root'
import stylesheet from './app.css?url'
import { useNonce } from './nonce.tsx'

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

/** Who is signed in, for the header of every page (error pages included). */
export async function loader(args: Route.LoaderArgs) {
  const account = await getAccount(args)
  return { email: account?.email ?? null }
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* Stylesheets need no nonce (style-src 'self'); an empty one keeps server and client markup equal. */}
        <Links nonce="" />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = 'Something went wrong'
  let detail = 'An unexpected error occurred. Try again in a moment.'
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? 'Page not found' : `${error.status} ${error.statusText}`
    detail = error.status === 404 ? 'There is nothing at this address.' : String(error.data ?? detail)
  }
  return (
    <AppShell>
      <div className="max-w-xl">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-2 text-slate-600">{detail}</p>
        <a className="mt-6 inline-block text-indigo-700 underline" href="/">
          Back to Sextant
        </a>
      </div>
    </AppShell>
  )
}
