// The trial's brief form: a topic, an optional objective and a timeframe. Depth and report style
// are fixed for the trial (quick, executive), so they are not offered.

import { Form, useNavigation } from 'react-router'
import { optionsOf, TIMEFRAME_LABELS } from '#app/components/brief-options.ts'
import { Field, FormError, SelectField, SubmitButton } from '#app/components/form.tsx'

const TIMEFRAMES = optionsOf(TIMEFRAME_LABELS)

export function TrialBriefForm({
  errors,
  values,
  limitMessage,
}: {
  errors: Record<string, string | undefined>
  values: { topic?: string; objective?: string; timeframe?: string }
  /** Set when the trial limit refused the last submission. */
  limitMessage?: string
}) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formAction?.startsWith('/trial')
  return (
    <Form method="post" action="/trial" className="flex flex-col gap-4" noValidate>
      {limitMessage ? (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">The trial limit is reached.</p>
          <p className="mt-1">{limitMessage}</p>
        </div>
      ) : null}
      <FormError message={errors.form} />
      <Field
        label="Topic"
        name="topic"
        defaultValue={values.topic}
        error={errors.topic}
        hint="What to research, up to 500 characters. For example: solid-state battery startups."
      />
      <Field
        rows={3}
        label="Objective (optional)"
        name="objective"
        defaultValue={values.objective}
        error={errors.objective}
        hint="What you want to learn, or which angle to take."
      />
      <SelectField
        label="Timeframe"
        name="timeframe"
        options={TIMEFRAMES}
        defaultValue={values.timeframe ?? '30d'}
        error={errors.timeframe}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton>{busy ? 'Starting…' : 'Start a quick run'}</SubmitButton>
        <p className="text-xs text-slate-500">Quick depth, executive summary, about a minute.</p>
      </div>
    </Form>
  )
}
