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

// Standard reason phrases: React Router's own statusText for a thrown data(..., { status: 400 })
// says "Internal Server Error", so a 4xx page names its status from here instead.
const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Page not found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
}

function describeError(error: unknown): { title: string; detail: string } {
  const unexpected = { title: 'Something went wrong', detail: 'An unexpected error occurred. Try again in a moment.' }
  if (!isRouteErrorResponse(error)) return unexpected
  if (error.status === 404) return { title: 'Page not found', detail: 'There is nothing at this address.' }
  const phrase = STATUS_TITLES[error.status] ?? (error.status < 500 ? 'Request refused' : unexpected.title)
  const detail = typeof error.data === 'string' && error.data ? error.data : unexpected.detail
  return { title: `${error.status} ${phrase}`, detail }
}

export const meta: Route.MetaFunction = ({ error }) => [
  { title: error ? `${describeError(error).title} · Sextant` : 'Sextant' },
]

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { title, detail } = describeError(error)
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
