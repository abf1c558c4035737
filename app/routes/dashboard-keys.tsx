// API keys of the signed-in account: create (the key is shown once), list, revoke.

import { data, Form } from 'react-router'
import { z } from 'zod'
import { AppShell } from '#app/components/app-shell.tsx'
import { CopyButton } from '#app/components/copy-button.tsx'
import { FocusedHeading } from '#app/components/focused-heading.tsx'
import { Field, SubmitButton } from '#app/components/form.tsx'
import { ListSection } from '#app/components/list-section.tsx'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { isServiceError } from '#app/service-errors.server.ts'
import { requireAccount } from '#app/session.server.ts'
import type { KeyLimitError } from '#server/accounts/contract.ts'
import { isStorableText } from '#server/vocabulary/storable-text.ts'
import type { Route } from './+types/dashboard-keys'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'API keys · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const keys = await args.context.get(servicesContext).keys.list(account.id)
  return {
    keys: keys.map((key) => ({
      prefix: key.prefix,
      name: key.name,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
  }
}

const CreateSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the key a name, e.g. laptop or ci.')
    .max(100, 'Use at most 100 characters.')
    .refine(isStorableText, 'Use letters, digits and punctuation only.'),
})

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const services = args.context.get(servicesContext)
  const form = await readFormData(args.request)
  if (form.get('intent') === 'revoke') {
    const revoked = await services.keys.revoke(String(form.get('prefix') ?? ''), account.id)
    return data(
      { created: null, error: revoked ? null : 'That key was already revoked.' },
      { status: revoked ? 200 : 404 },
    )
  }
  const parsed = CreateSchema.safeParse({ name: form.get('name') })
  if (!parsed.success)
    return data({ created: null, error: parsed.error.issues[0]?.message ?? 'Invalid name.' }, { status: 400 })
  try {
    const { key, summary } = await services.keys.create(account.id, parsed.data.name)
    return { created: { key, name: summary.name }, error: null }
  } catch (error) {
    if (!isServiceError<KeyLimitError>(error, 'KeyLimitError')) throw error
    return data({ created: null, error: error.message }, { status: 409 })
  }
}

function when(iso: string | null): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never'
}

export default function Keys({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
      <p className="mt-2 max-w-2xl text-slate-600">
        Keys let the REST API and MCP clients (Claude Desktop, Cursor) act as you. Send one as{' '}
        <code className="rounded bg-slate-100 px-1">Authorization: Bearer sx_…</code>.
      </p>

      {actionData?.created ? (
        <section
          aria-labelledby="new-key-heading"
          className="mt-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4"
        >
          {/* Focus lands here once the key is made: a screen reader says it is there to copy. */}
          <FocusedHeading key={actionData.created.key} id="new-key-heading" className="font-semibold">
            New key “{actionData.created.name}”: copy it now
          </FocusedHeading>
          <p className="mt-1 text-sm text-slate-700">It is shown only this once; Sextant keeps only a hash of it.</p>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <code data-testid="new-key" className="break-all rounded bg-white px-2 py-1 font-mono text-sm">
              {actionData.created.key}
            </code>
            <CopyButton text={actionData.created.key} />
          </div>
        </section>
      ) : null}

      <section
        aria-labelledby="create-heading"
        className="mt-6 max-w-md rounded-lg border border-slate-200 bg-white p-4"
      >
        <h2 id="create-heading" className="font-semibold">
          Create a key
        </h2>
        {/* Keyed on the last created key, so the form starts empty again after a create. */}
        <Form key={actionData?.created?.key ?? 'form'} method="post" className="mt-3 flex flex-col gap-3">
          <Field
            label="Name"
            name="name"
            hint="Where you will use it, e.g. laptop or ci."
            error={actionData?.error ?? undefined}
          />
          <SubmitButton>Create key</SubmitButton>
        </Form>
      </section>

      <ListSection id="keys" title="Your keys" empty="No keys yet." items={loaderData.keys}>
        {(key) => (
          <li key={key.prefix} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div>
              <p className="font-medium">
                {key.name} <code className="text-sm text-slate-500">sx_{key.prefix}_…</code>
              </p>
              <p className="text-sm text-slate-600">
                Created {when(key.createdAt)} · last used {when(key.lastUsedAt)}
                {key.revokedAt ? ` · revoked ${when(key.revokedAt)}` : ''}
              </p>
            </div>
            {key.revokedAt ? (
              <span className="text-sm text-slate-500">Revoked</span>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="prefix" value={key.prefix} />
                <button
                  type="submit"
                  aria-label={`Revoke ${key.name}`}
                  className="rounded-md border border-red-300 px-3 py-1 text-sm text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700"
                >
                  Revoke
                </button>
              </Form>
            )}
          </li>
        )}
      </ListSection>
    </AppShell>
  )
}
