import { AppShell } from '#app/components/app-shell.tsx'
import { servicesContext } from '#app/context.ts'
import { requireAccount } from '#app/session.server.ts'
import { installedAt } from '#server/settings.ts'
import type { Route } from './+types/dashboard'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Dashboard · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const { db } = args.context.get(servicesContext)
  return { email: account.email, installedAt: (await installedAt(db)).toISOString() }
}

const sections = [
  { title: 'Runs', empty: 'No research runs yet. Runs you start appear here and update live.' },
  { title: 'Topics', empty: 'Topics collect what every run has learned: facts, sources and the URLs read.' },
  {
    title: 'Recurring briefs',
    empty: 'Recurring briefs sleep for seven days between runs and show here while they wait.',
  },
]

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell email={loaderData.email} footer={<>Running since {new Date(loaderData.installedAt).toUTCString()}</>}>
      <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
      <div className="mt-6 grid gap-4 md:grid-cols-3">
        {sections.map((section) => (
          <section
            key={section.title}
            aria-labelledby={`${section.title}-heading`}
            className="rounded-lg border border-slate-200 bg-white p-4"
          >
            <h2 id={`${section.title}-heading`} className="font-medium">
              {section.title}
            </h2>
            <p className="mt-2 text-sm text-slate-600">{section.empty}</p>
          </section>
        ))}
      </div>
    </AppShell>
  )
}
