/** The centred card around the sign-up and log-in forms. */
export function AuthCard({
  title,
  children,
  footer,
}: {
  title: string
  children: React.ReactNode
  footer: React.ReactNode
}) {
  return (
    <main className="flex min-h-full items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <a href="/" className="text-sm font-semibold tracking-tight text-indigo-700">
          Sextant
        </a>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">{title}</h1>
        <div className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">{children}</div>
        <p className="mt-4 text-center text-sm text-slate-600">{footer}</p>
      </div>
    </main>
  )
}
