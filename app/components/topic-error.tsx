import { isRouteErrorResponse, Link } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { linkClass } from '#app/components/topic-facts.tsx'

/** The topic pages' error boundary: a missing topic says so in the app's frame, with a way back. */
export function TopicErrorPage({ error }: { error: unknown }) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">{notFound ? 'Topic not found' : 'Something went wrong'}</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        {notFound && typeof error.data === 'string'
          ? error.data
          : 'The topic could not be shown. Try again in a moment.'}
      </p>
      <p className="mt-6">
        <Link to="/dashboard/topics" className={linkClass}>
          Back to your topics
        </Link>
      </p>
    </AppShell>
  )
}
