// The trial's brief form: a topic, an optional objective and a timeframe. Depth and report style
// are fixed for the trial (quick, executive), so they are not offered.
import { Form, useNavigation } from 'react-router'
import { Field, FormError, SubmitButton } from '#app/components/form.tsx'

const TRIAL_TIMEFRAMES = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: 'all', label: 'Any time' },
] as const

const controlClass =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-invalid:border-red-600'

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
      <TextArea
        label="Objective (optional)"
        name="objective"
        defaultValue={values.objective}
        error={errors.objective}
        hint="What you want to learn, or which angle to take."
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="field-timeframe" className="text-sm font-medium text-slate-800">
          Timeframe
        </label>
        <select
          id="field-timeframe"
          name="timeframe"
          defaultValue={values.timeframe ?? '30d'}
          aria-invalid={errors.timeframe ? true : undefined}
          aria-describedby={errors.timeframe ? 'field-timeframe-error' : undefined}
          className={controlClass}
        >
          {TRIAL_TIMEFRAMES.map((timeframe) => (
            <option key={timeframe.value} value={timeframe.value}>
              {timeframe.label}
            </option>
          ))}
        </select>
        {errors.timeframe ? (
          <p id="field-timeframe-error" className="text-sm text-red-700">
            {errors.timeframe}
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton>{busy ? 'Starting…' : 'Start a quick run'}</SubmitButton>
        <p className="text-xs text-slate-500">Quick depth, executive summary, about a minute.</p>
      </div>
    </Form>
  )
}

function TextArea(props: { label: string; name: string; defaultValue?: string; error?: string; hint?: string }) {
  const id = `field-${props.name}`
  const describedBy = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <textarea
        id={id}
        name={props.name}
        rows={3}
        defaultValue={props.defaultValue}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={controlClass}
      />
      {props.hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {props.error}
        </p>
      ) : null}
    </div>
  )
}
