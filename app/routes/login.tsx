import { data, Form, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth-card.tsx'
import { Field, FormError, fieldErrors, SubmitButton } from '#app/components/form.tsx'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { getAccount, safeRedirect, signIn } from '#app/session.server.ts'
import { type Account, DEVICE_COOKIE, deviceCookie, readCookie } from '#server/accounts/contract.ts'
import type { Route } from './+types/login'

const LoginSchema = z.object({
  email: z.email('Enter a valid email address.'),
  password: z.string().min(1, 'Enter your password.').max(200),
})

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Log in · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  if (await getAccount(args)) throw redirect(safeRedirect(new URL(args.request.url).searchParams.get('redirectTo')))
  return null
}

export async function action(args: Route.ActionArgs) {
  const form = await readFormData(args.request)
  const email = String(form.get('email') ?? '')
  const parsed = LoginSchema.safeParse({ email: form.get('email'), password: form.get('password') })
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error.issues), email }, { status: 400 })
  const services = args.context.get(servicesContext)
  const device = readCookie(args.request.headers.get('cookie'), DEVICE_COOKIE)
  const attempt = await services.logins.login(args.context.get(requestInfoContext).ip, parsed.data.email, device)
  if (!attempt.allowed) {
    return data(
      { errors: { form: attempt.message }, email },
      { status: 429, headers: { 'Retry-After': String(attempt.retryAfterSeconds) } },
    )
  }
  let account: Account | undefined
  try {
    account = await services.accounts.authenticate(parsed.data.email, parsed.data.password)
  } finally {
    await attempt.done({ succeeded: account !== undefined })
  }
  if (!account)
    return data({ errors: { form: 'That email and password do not match an account.' }, email }, { status: 401 })
  // This device is known to the account from now on: strangers' failed guesses do not lock it out.
  return signIn(args, account.id, safeRedirect(form.get('redirectTo')), (secure) =>
    deviceCookie(attempt.device(), { secure }),
  )
}

/** The action's Retry-After reaches the page that says to wait. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : {}
}

export default function Login({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams()
  const errors: Record<string, string | undefined> = actionData?.errors ?? {}
  const signedUp = searchParams.get('signup') === 'done'
  return (
    <AuthCard
      title="Log in to Sextant"
      footer={
        <>
          New here?{' '}
          <a className="font-medium text-indigo-700 underline" href="/signup">
            Create an account
          </a>
        </>
      }
    >
      <Form method="post" className="flex flex-col gap-4" noValidate>
        <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? '/dashboard'} />
        {signedUp && !errors.form ? (
          <p
            role="status"
            className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
          >
            If that email was new, your account is ready: log in with it. If it already had an account, log in with that
            account's password; nothing about it has changed.
          </p>
        ) : null}
        <FormError message={errors.form} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={actionData?.email}
          error={errors.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          error={errors.password}
        />
        <SubmitButton>Log in</SubmitButton>
      </Form>
    </AuthCard>
  )
}
