import { SearchScopeNote } from '#app/components/search-scope.tsx'
import { servicesContext } from '#app/context.ts'
import { searchScope } from '#app/search-scope.server.ts'
import type { Route } from './+types/home'

export function meta(_: Route.MetaArgs) {
  return [
    { title: 'Sextant: research that remembers' },
    { name: 'description', content: 'A durable web research agent with persistent, encrypted per-topic memory.' },
  ]
}

export async function loader(args: Route.LoaderArgs) {
  return { scope: await searchScope(args.context.get(servicesContext)) }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { scope } = loaderData
  return (
    <main className="mx-auto flex min-h-full max-w-3xl flex-col justify-center px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700">Sextant</p>
      <h1 className="mt-2 text-4xl font-semibold tracking-tight">Research that remembers what it read.</h1>
      <p className="mt-4 text-lg text-slate-600">
        Send a brief. Sextant plans searches, reads {scope === 'web' ? 'the web' : 'what they find'}, and writes a cited
        report. The next run on the same topic skips what it has already read and tells you only what changed.
      </p>
      <div className="mt-4">
        <SearchScopeNote scope={scope} />
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        <a
          href="/dashboard"
          className="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
        >
          Open the dashboard
        </a>
        <a
          href="/trial"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
        >
          Try it without an account
        </a>
      </div>
    </main>
  )
}
