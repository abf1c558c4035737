// Outbound webhooks of the signed-in account: register an endpoint (its signing secret shown once),
// list them with their state and, when disabled, why; rotate a secret; delete an endpoint.

import { data, Form } from 'react-router'
import { z } from 'zod'
import { AppShell } from '#app/components/app-shell.tsx'
import { CopyButton } from '#app/components/copy-button.tsx'
import { Field, SubmitButton } from '#app/components/form.tsx'
import { ListSection } from '#app/components/list-section.tsx'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { requireAccount } from '#app/session.server.ts'
import { presentEndpoint } from '#server/notify/contract.ts'
import { WEBHOOK_EVENT_TYPES } from '#server/vocabulary/notify.ts'
import { isStorableText } from '#server/vocabulary/storable-text.ts'
import type { Route } from './+types/dashboard-webhooks'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Webhooks · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const endpoints = await args.context.get(servicesContext).webhooks.endpoints.list(account.id)
  return { endpoints: endpoints.map(presentEndpoint) }
}

const CreateSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Give the URL your server receives events at.')
    .max(2000, 'Use at most 2000 characters.'),
  description: z
    .string()
    .trim()
    .max(200, 'Use at most 200 characters.')
    .refine(isStorableText, 'Use letters, digits and punctuation only.'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'Choose at least one event.'),
})

type ActionData = { created: { url: string; secret: string; rotated: boolean } | null; error: string | null }

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const { webhooks } = args.context.get(servicesContext)
  const form = await readFormData(args.request)
  const intent = form.get('intent')
  const id = String(form.get('id') ?? '')
  const valid = z.uuid().safeParse(id).success
  if (intent === 'delete') {
    const removed = valid && (await webhooks.endpoints.remove(account.id, id))
    return data<ActionData>(
      { created: null, error: removed ? null : 'That endpoint no longer exists.' },
      { status: removed ? 200 : 404 },
    )
  }
  if (intent === 'rotate') {
    const rotated = valid ? await webhooks.endpoints.rotate(account.id, id) : undefined
    if (!rotated) return data<ActionData>({ created: null, error: 'That endpoint no longer exists.' }, { status: 404 })
    return data<ActionData>({
      created: { url: rotated.endpoint.url, secret: rotated.secret, rotated: true },
      error: null,
    })
  }
  const parsed = CreateSchema.safeParse({
    url: form.get('url') ?? '',
    description: form.get('description') ?? '',
    events: form.getAll('events'),
  })
  if (!parsed.success) {
    return data<ActionData>(
      { created: null, error: parsed.error.issues[0]?.message ?? 'Invalid endpoint.' },
      { status: 400 },
    )
  }
  const { url, description, events } = parsed.data
  const outcome = await webhooks.endpoints.create(account.id, { url, events, description: description || undefined })
  if (!outcome.ok) {
    const message = outcome.reason === 'url' ? `The ${outcome.message}.` : outcome.message
    return data<ActionData>({ created: null, error: message }, { status: outcome.reason === 'limit' ? 409 : 400 })
  }
  return data<ActionData>({
    created: { url: outcome.endpoint.url, secret: outcome.secret, rotated: false },
    error: null,
  })
}

function when(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never'
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const created = actionData?.created
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Sextant POSTs <code className="rounded bg-slate-100 px-1">run.completed</code>,{' '}
        <code className="rounded bg-slate-100 px-1">run.failed</code> and{' '}
        <code className="rounded bg-slate-100 px-1">series.changed</code> events to your endpoints, signed under the
        Standard Webhooks scheme: verify them with any Standard Webhooks library and the endpoint’s secret.
      </p>

      {created ? (
        <section
          aria-labelledby="secret-heading"
          className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
        >
          <h2 id="secret-heading" className="font-semibold">
            {created.rotated ? 'New signing secret' : 'Signing secret'} for {created.url}: copy it now
          </h2>
          <p className="mt-1 text-sm text-slate-700">It is shown only this once.</p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <code data-testid="signing-secret" className="break-all rounded bg-white px-2 py-1 font-mono text-sm">
              {created.secret}
            </code>
            <CopyButton text={created.secret} />
          </div>
        </section>
      ) : null}

      <section
        aria-labelledby="create-heading"
        className="mt-6 max-w-xl rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 id="create-heading" className="font-semibold">
          Add an endpoint
        </h2>
        <Form key={created?.secret ?? 'form'} method="post" className="mt-3 flex flex-col gap-3">
          <Field
            label="URL"
            name="url"
            type="url"
            hint="https, at a public address."
            error={actionData?.error ?? undefined}
          />
          <Field label="Description" name="description" hint="Optional: what receives it." />
          <fieldset>
            <legend className="text-sm font-medium">Events</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="mr-4 inline-flex items-center gap-1 text-sm">
                <input type="checkbox" name="events" value={type} defaultChecked /> <code>{type}</code>
              </label>
            ))}
          </fieldset>
          <SubmitButton>Add endpoint</SubmitButton>
        </Form>
      </section>

      <ListSection id="endpoints" title="Your endpoints" empty="No endpoints yet." items={loaderData.endpoints}>
        {(endpoint) => (
          <li key={endpoint.id} className="flex flex-wrap items-start justify-between gap-3 p-4" data-testid="endpoint">
            <div className="min-w-0">
              <p className="break-all font-medium">{endpoint.url}</p>
              {endpoint.description ? <p className="text-sm text-slate-700">{endpoint.description}</p> : null}
              <p className="text-sm text-slate-600">
                {endpoint.events.join(', ')} · last delivered {when(endpoint.lastSuccessAt)}
                {endpoint.consecutiveFailures > 0 ? ` · ${endpoint.consecutiveFailures} failed attempts in a row` : ''}
              </p>
              {endpoint.status === 'disabled' ? (
                <p className="mt-1 text-sm text-red-800" data-testid="disabled-reason">
                  Disabled {when(endpoint.disabledAt)}: {endpoint.disabledReason}
                </p>
              ) : (
                <p className="mt-1 text-sm text-emerald-800">Active</p>
              )}
            </div>
            <div className="flex gap-2">
              <Form method="post">
                <input type="hidden" name="intent" value="rotate" />
                <input type="hidden" name="id" value={endpoint.id} />
                <button
                  type="submit"
                  aria-label={`Rotate the secret of ${endpoint.url}`}
                  className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-700"
                >
                  Rotate secret
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={endpoint.id} />
                <button
                  type="submit"
                  aria-label={`Delete ${endpoint.url}`}
                  className="rounded-md border border-red-300 px-3 py-1 text-sm text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700"
                >
                  Delete
                </button>
              </Form>
            </div>
          </li>
        )}
      </ListSection>
    </AppShell>
  )
}
