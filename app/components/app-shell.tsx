import { Form, NavLink, useRouteLoaderData } from 'react-router'

const links = [
  { to: '/dashboard', label: 'Dashboard', end: true },
  { to: '/dashboard/topics', label: 'Topics', signedIn: true },
  { to: '/dashboard/series', label: 'Recurring', signedIn: true },
  { to: '/dashboard/keys', label: 'API keys', signedIn: true },
  { to: '/dashboard/webhooks', label: 'Webhooks', signedIn: true },
  { to: '/dashboard/feeds', label: 'Feeds', signedIn: true },
  { to: '/trial', label: 'Try it' },
]

/** The frame every signed-in page shares: brand, navigation, content. */
export function AppShell({ children, footer }: { children: React.ReactNode; footer?: React.ReactNode }) {
  // The signed-in account (from the root loader), shown with a log-out button.
  const email = useRouteLoaderData<{ email: string | null }>('root')?.email
  return (
    <div className="flex min-h-full flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus-visible:outline-2 focus-visible:outline-indigo-700"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <a
            href="/"
            className="rounded-sm text-lg font-semibold tracking-tight text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
          >
            Sextant
          </a>
          <nav
            aria-label="Main"
            className="order-last flex w-full flex-wrap gap-x-4 gap-y-1 text-sm sm:order-none sm:w-auto"
          >
            {links
              .filter((link) => !link.signedIn || email)
              .map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    `rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 ${
                      isActive ? 'font-medium text-indigo-700' : 'text-slate-600 hover:text-slate-900'
                    }`
                  }
                >
                  {link.label}
                </NavLink>
              ))}
          </nav>
          {email ? (
            <Form method="post" action="/logout" className="ml-auto flex items-center gap-3 text-sm">
              <span className="hidden text-slate-600 sm:inline">{email}</span>
              <button
                type="submit"
                className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
              >
                Log out
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none">
        {children}
      </main>
      {footer ? (
        <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500">{footer}</footer>
      ) : null}
    </div>
  )
}
