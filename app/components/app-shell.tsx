import { Form, NavLink } from 'react-router'

const links = [
  { to: '/dashboard', label: 'Dashboard', end: true },
  { to: '/dashboard/topics', label: 'Topics', signedIn: true },
  { to: '/dashboard/series', label: 'Recurring', signedIn: true },
  { to: '/dashboard/keys', label: 'API keys', signedIn: true },
  { to: '/trial', label: 'Try it' },
]

/** The frame every signed-in page shares: brand, navigation, content. */
export function AppShell({
  children,
  footer,
  email,
}: {
  children: React.ReactNode
  footer?: React.ReactNode
  /** The signed-in account, shown with a log-out button. */
  email?: string
}) {
  return (
    <div className="flex min-h-full flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <a href="/" className="text-lg font-semibold tracking-tight text-slate-900">
            Sextant
          </a>
          <nav aria-label="Main" className="order-last flex w-full flex-wrap gap-x-4 gap-y-1 text-sm sm:order-none sm:w-auto">
            {links
              .filter((link) => !link.signedIn || email)
              .map((link) => (
                <NavLink
                  key={link.to}
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    isActive ? 'font-medium text-indigo-700' : 'text-slate-600 hover:text-slate-900'
                  }
                >
                  {link.label}
                </NavLink>
              ))}
          </nav>
          {email ? (
            <Form method="post" action="/logout" className="ml-auto flex items-center gap-3 text-sm">
              <span className="hidden text-slate-600 sm:inline">{email}</span>
              <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100">
                Log out
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
      {footer ? (
        <footer className="border-t border-slate-200 py-4 text-center text-xs text-slate-500">{footer}</footer>
      ) : null}
    </div>
  )
}
