// Private Atom feeds of the signed-in account: made from a topic's or a recurring brief's page (the
// URL, with its token, is shown once), listed, revoked.

import { data, Form, Link } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { CopyButton } from '#app/components/copy-button.tsx'
import { ListSection } from '#app/components/list-section.tsx'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { requireAccount } from '#app/session.server.ts'
import { MAX_FEEDS_PER_ACCOUNT } from '#server/notify/contract.ts'
import type { Route } from './+types/dashboard-feeds'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Feeds · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const { feeds } = await args.context.get(servicesContext).feeds.list(account.id)
  return { feeds: feeds.map((feed) => ({ ...feed, createdAt: feed.createdAt.toISOString() })) }
}

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const { feeds } = args.context.get(servicesContext)
  const form = await readFormData(args.request)
  const intent = form.get('intent')
  if (intent === 'revoke') {
    const revoked = await feeds.revoke(account.id, String(form.get('feedId') ?? ''))
    return data(
      { created: null, error: revoked ? null : 'That feed was already revoked.' },
      { status: revoked ? 200 : 404 },
    )
  }
  if (intent !== 'create') throw data('Unknown action.', { status: 400 })
  const topicId = form.get('topicId')
  const seriesId = form.get('seriesId')
  const subject =
    typeof topicId === 'string' && topicId
      ? { topicId }
      : typeof seriesId === 'string' && seriesId
        ? { seriesId }
        : undefined
  const created = subject ? await feeds.create(account.id, subject) : ({ ok: false, reason: 'not_found' } as const)
  if (!created.ok && created.reason === 'limit') {
    return data(
      { created: null, error: `You have ${MAX_FEEDS_PER_ACCOUNT} feeds, as many as an account may; revoke one first.` },
      { status: 409 },
    )
  }
  if (!created.ok) {
    return data({ created: null, error: 'There is no such topic or recurring brief in your account.' }, { status: 404 })
  }
  return { created: { url: created.url, topic: created.feed.topic }, error: null }
}

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`
}

export default function Feeds({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Feeds</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        A feed follows one topic or recurring brief in any feed reader: one entry per run that found something new,
        updated or contradicted. Its address is its key: anyone who has it can read the feed, so keep it private and
        revoke it when you no longer need it. Make one from a topic’s page or a recurring brief.
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.created ? (
        <section
          aria-labelledby="new-feed-heading"
          className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
        >
          <h2 id="new-feed-heading" className="font-semibold">
            New feed of “{actionData.created.topic}”: copy its address now
          </h2>
          <p className="mt-1 text-sm text-slate-700">It is shown only this once; Sextant keeps only a hash of it.</p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <code data-testid="new-feed" className="break-all rounded bg-white px-2 py-1 font-mono text-sm">
              {actionData.created.url}
            </code>
            <CopyButton text={actionData.created.url} />
          </div>
        </section>
      ) : null}
      <ListSection id="feeds" title="Your feeds" empty="No feeds yet." items={loaderData.feeds}>
        {(feed) => (
          <li key={feed.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <p className="font-medium break-words">
                {feed.topicId ? (
                  <Link to={`/dashboard/topics/${feed.topicId}`} className="text-indigo-700 underline">
                    {feed.topic}
                  </Link>
                ) : (
                  feed.topic
                )}{' '}
                <span className="text-sm text-slate-500">{feed.seriesId ? 'recurring brief' : 'topic'}</span>
              </p>
              <p className="text-sm text-slate-600">Made {when(feed.createdAt)}</p>
            </div>
            <Form method="post">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="feedId" value={feed.id} />
              <button
                type="submit"
                aria-label={`Revoke the feed of ${feed.topic}`}
                className="rounded-md border border-red-300 px-3 py-1 text-sm text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700"
              >
                Revoke
              </button>
            </Form>
          </li>
        )}
      </ListSection>
    </AppShell>
  )
}
