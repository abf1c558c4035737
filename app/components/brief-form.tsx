// The new-brief form of the dashboard: every field of spec 2.1, validated on the server. Errors sit
// next to their fields and what was typed comes back with them.

import { useEffect, useId, useRef } from 'react'
import { Form, useNavigation } from 'react-router'
import { optionsOf, REPORT_STYLE_LABELS, TIMEFRAME_LABELS } from '#app/components/brief-options.ts'
import {
  CadenceFields,
  type CadenceValues,
  DEFAULT_CADENCE_VALUES,
  type ScheduleLimits,
} from '#app/components/cadence-fields.tsx'
import { ErrorText, Field, FormError, RadioCards, SelectField } from '#app/components/form.tsx'
import { type FrameworkOption, FrameworkPicker } from '#app/components/framework-picker.tsx'
import { LocalTime } from '#app/components/local-time.tsx'

export type BriefFormValues = CadenceValues & {
  topic: string
  objective: string
  focus: string
  depth: string
  timeframe: string
  reportStyle: string
  recurring: boolean
  frameworkId: string
  maxTokens: string
  maxCostDollars: string
}

export type RunLimitRefusal = { message: string; resetsAt: string }

export const DEFAULT_BRIEF_VALUES: BriefFormValues = {
  topic: '',
  objective: '',
  focus: '',
  depth: 'deep',
  timeframe: '30d',
  reportStyle: 'executive',
  recurring: false,
  frameworkId: '',
  maxTokens: '',
  maxCostDollars: '',
  ...DEFAULT_CADENCE_VALUES,
}

/** What the server does when a brief sets no budget, for the budget fields' hints. */
export type BudgetDefaults = { maxTokens: number | null; modelPriced: boolean }

const DEPTHS = [
  { value: 'quick', label: 'Quick', detail: 'About 3 searches; aims to finish in about 45 seconds.' },
  { value: 'deep', label: 'Deep', detail: 'About 6 searches and a follow-up round; aims for about 90 seconds.' },
]

const TIMEFRAMES = optionsOf(TIMEFRAME_LABELS)
const REPORT_STYLES = optionsOf({ ...REPORT_STYLE_LABELS, framework: 'Framework sections (needs a framework)' })

export function BriefForm({
  frameworks,
  categories,
  values = DEFAULT_BRIEF_VALUES,
  errors = {},
  limit,
  budgetDefaults,
  schedule,
}: {
  frameworks: readonly FrameworkOption[]
  categories: readonly string[]
  values?: BriefFormValues
  errors?: Record<string, string | undefined>
  limit?: RunLimitRefusal | null
  budgetDefaults: BudgetDefaults
  schedule: ScheduleLimits
}) {
  const navigation = useNavigation()
  const submitting = navigation.state === 'submitting' && navigation.formAction === '/dashboard'
  const limitId = useId()
  const form = useRef<HTMLFormElement>(null)
  // A brief sent back with errors: focus goes to the first field to fix, so a screen reader says its
  // label and its error (aria-describedby) at once, rather than nothing while focus stays on the button.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]')
    if (first && first.getAttribute('role') === 'alert') first.setAttribute('tabindex', '-1')
    first?.focus()
  }, [errors])
  return (
    <Form ref={form} method="post" action="/dashboard" noValidate className="flex flex-col gap-5">
      <FormError message={errors.form} />
      <Field
        name="topic"
        label="Topic"
        rows={2}
        required
        defaultValue={values.topic}
        error={errors.topic}
        hint="What to research, at most 500 characters. Runs on the same topic share memory."
      />
      <div className="grid gap-5 md:grid-cols-2">
        <Field
          name="objective"
          label="Objective"
          rows={2}
          defaultValue={values.objective}
          error={errors.objective}
          hint="Optional. What to learn, or which angle to take."
        />
        <Field
          name="focus"
          label="Focus areas"
          defaultValue={values.focus}
          error={errors.focus}
          hint="Optional. Comma-separated, e.g. pricing, regulation, competitors."
        />
      </div>
      <RadioCards
        legend="Depth"
        name="depth"
        options={DEPTHS}
        value={values.depth}
        error={errors.depth}
        errorId="field-depth-error"
      />
      <div className="grid gap-5 md:grid-cols-2">
        <SelectField
          name="timeframe"
          label="Timeframe"
          options={TIMEFRAMES}
          defaultValue={values.timeframe}
          error={errors.timeframe}
          hint="Only sources published in this window."
        />
        <SelectField
          name="reportStyle"
          label="Report style"
          options={REPORT_STYLES}
          defaultValue={values.reportStyle}
          error={errors.reportStyle}
        />
      </div>
      <FrameworkPicker
        frameworks={frameworks}
        categories={categories}
        defaultValue={values.frameworkId}
        error={errors.frameworkId}
      />
      {/* Text, not type="number": a browser empties a number field it cannot read, and a budget typed
          wrong must come back with its error rather than start a run without it. */}
      <div className="grid gap-5 md:grid-cols-2">
        <Field
          name="maxTokens"
          label="Token budget"
          inputMode="numeric"
          defaultValue={values.maxTokens}
          error={errors.maxTokens}
          hint={`Optional. Model tokens for the whole run, 1,000 to 10,000,000; a run that reaches it stops spending and reports what it has. ${
            budgetDefaults.maxTokens === null
              ? 'Left empty, the run has no token limit.'
              : `Left empty, this server stops at ${budgetDefaults.maxTokens.toLocaleString('en-US')}.`
          }`}
        />
        <Field
          name="maxCostDollars"
          label="Cost budget ($)"
          inputMode="decimal"
          defaultValue={values.maxCostDollars}
          error={errors.maxCostDollars}
          hint={`Optional. Dollars for the whole run, 0.01 to 1,000: ${
            budgetDefaults.modelPriced
              ? 'searches and model tokens at this server’s prices.'
              : 'what searches cost (this server has no model prices, so tokens are not counted).'
          }`}
        />
      </div>
      {/* The schedule shows only while "recurring" is ticked (app.css); without CSS it is always there, and ignored unticked. */}
      <div className="recurring-group flex flex-col gap-1">
        <label className="flex cursor-pointer items-start gap-3">
          <input
            type="checkbox"
            name="recurring"
            defaultChecked={values.recurring}
            aria-describedby="field-recurring-hint"
            className="mt-1 size-4 accent-indigo-700"
          />
          <span className="text-sm font-medium text-slate-800">Run again on a schedule</span>
        </label>
        <p id="field-recurring-hint" className="pl-7 text-xs text-slate-500">
          The brief sleeps between runs, costing nothing, and each new run reports what changed. Choose how often below.
        </p>
        <ErrorText id="field-recurring-error" message={errors.recurring} />
        <fieldset className="recurring-schedule mt-2 rounded-md border border-slate-200 p-3 sm:ml-7">
          <legend className="px-1 text-sm font-medium text-slate-800">Schedule</legend>
          <CadenceFields values={values} errors={errors} limits={schedule} />
        </fieldset>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <button
          type="submit"
          aria-describedby={limit ? limitId : undefined}
          aria-disabled={submitting || undefined}
          onClick={(event) => {
            if (submitting) event.preventDefault()
          }}
          className="shrink-0 whitespace-nowrap rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 aria-disabled:opacity-70"
        >
          {submitting ? 'Starting…' : 'Start research'}
        </button>
        {limit ? (
          <p
            id={limitId}
            role="alert"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
          >
            <strong className="font-semibold">Limit reached.</strong> {limit.message} The limit resets at{' '}
            <LocalTime iso={limit.resetsAt} seconds />.
          </p>
        ) : null}
      </div>
    </Form>
  )
}
