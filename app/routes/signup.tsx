import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth-card.tsx'
import { Field, FormError, fieldErrors, SubmitButton } from '#app/components/form.tsx'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { isServiceError } from '#app/service-errors.server.ts'
import { getAccount, safeRedirect } from '#app/session.server.ts'
import type { Route } from './+types/signup'

const SignupSchema = z.object({
  email: z.email('Enter a valid email address.').max(254, 'That email address is too long.'),
  password: z.string().min(8, 'Use at least 8 characters.').max(200, 'Use at most 200 characters.'),
})

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Sign up · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  if (await getAccount(args)) throw redirect('/dashboard')
  return null
}

/**
 * The same answer whether or not the email already has an account, so sign-up cannot be used to
 * find out who has one: "if it was new, log in; otherwise log in with your password". Both paths
 * hash the password and try the insert, so they take the same time too. The owner of an existing
 * account loses nothing: their account and password are untouched.
 */
export async function action(args: Route.ActionArgs) {
  const form = await readFormData(args.request)
  const parsed = SignupSchema.safeParse({ email: form.get('email'), password: form.get('password') })
  const email = String(form.get('email') ?? '')
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error.issues), email }, { status: 400 })
  const services = args.context.get(servicesContext)
  const attempt = await services.logins.signup(args.context.get(requestInfoContext).ip)
  if (!attempt.allowed) {
    return data(
      { errors: { form: attempt.message }, email },
      { status: 429, headers: { 'Retry-After': String(attempt.retryAfterSeconds) } },
    )
  }
  try {
    await services.accounts.create(parsed.data)
  } catch (error) {
    if (!isServiceError(error, 'EmailTakenError')) throw error
  } finally {
    await attempt.done()
  }
  const next = new URLSearchParams({ signup: 'done', redirectTo: safeRedirect(form.get('redirectTo')) })
  return redirect(`/login?${next}`)
}

/** The action's Retry-After reaches the page that says to wait. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : {}
}

export default function Signup({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string | undefined> = actionData?.errors ?? {}
  return (
    <AuthCard
      title="Create your account"
      footer={
        <>
          Have an account?{' '}
          <a className="font-medium text-indigo-700 underline" href="/login">
            Log in
          </a>
        </>
      }
    >
      <Form method="post" className="flex flex-col gap-4" noValidate>
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
          autoComplete="new-password"
          error={errors.password}
          hint="At least 8 characters."
        />
        <SubmitButton>Sign up</SubmitButton>
      </Form>
    </AuthCard>
  )
}
