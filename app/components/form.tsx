// Labelled fields with their hint and error next to them, for plain server-validated forms.
// Every form uses these, so all fields read and announce their errors the same way.

export const controlClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-invalid:border-red-600'

type FieldProps = {
  label: string
  name: string
  error?: string
  hint?: string
  required?: boolean
  /** For a form repeated on a page (one per card): `field-<name>` otherwise. */
  id?: string
}

/** The label, hint and error around a control; `control` receives the id and ARIA attributes to use. */
function LabelledControl(
  props: FieldProps & {
    control: (attributes: {
      id: string
      'aria-invalid'?: true
      'aria-describedby'?: string
      'aria-required'?: true
    }) => React.ReactNode
  },
) {
  const id = props.id ?? `field-${props.name}`
  const describedBy = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {props.label}
        {props.required ? <span className="font-normal text-slate-500"> (required)</span> : null}
      </label>
      {props.control({
        id,
        'aria-invalid': props.error ? true : undefined,
        'aria-describedby': describedBy || undefined,
        'aria-required': props.required || undefined,
      })}
      {props.hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {props.hint}
        </p>
      ) : null}
      <ErrorText id={`${id}-error`} message={props.error} />
    </div>
  )
}

/** A text input, or a textarea when `rows` is given. */
export function Field(
  props: FieldProps & {
    type?: string
    autoComplete?: string
    defaultValue?: string
    rows?: number
    inputMode?: React.HTMLAttributes<HTMLInputElement>['inputMode']
  },
) {
  return (
    <LabelledControl
      {...props}
      control={(attributes) =>
        props.rows ? (
          <textarea
            {...attributes}
            name={props.name}
            rows={props.rows}
            defaultValue={props.defaultValue}
            className={controlClass}
          />
        ) : (
          <input
            {...attributes}
            name={props.name}
            type={props.type ?? 'text'}
            inputMode={props.inputMode}
            autoComplete={props.autoComplete}
            defaultValue={props.defaultValue}
            className={controlClass}
          />
        )
      }
    />
  )
}

export function SelectField(
  props: FieldProps & { options: ReadonlyArray<{ value: string; label: string }>; defaultValue: string },
) {
  return (
    <LabelledControl
      {...props}
      control={(attributes) => (
        <select {...attributes} name={props.name} defaultValue={props.defaultValue} className={controlClass}>
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  )
}

export function ErrorText({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="text-sm text-red-700">
      {message}
    </p>
  )
}

/**
 * A choice of a few options as cards: each a label with its radio, a title and a line of detail.
 * `compact` sets the title and detail a size smaller (for a choice inside a fieldset of its own).
 */
export function RadioCards({
  legend,
  name,
  options,
  value,
  error,
  errorId,
  compact = false,
}: {
  legend: string
  name: string
  options: ReadonlyArray<{ value: string; label: string; detail: string }>
  value: string
  error?: string
  errorId: string
  compact?: boolean
}) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer gap-3 rounded-md border border-slate-300 bg-white p-3 has-checked:border-indigo-600 has-checked:bg-indigo-50 has-focus-visible:outline-2 has-focus-visible:outline-indigo-700"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={value === option.value}
              className="mt-1 accent-indigo-700"
            />
            <span className="flex flex-col">
              <span className={compact ? 'text-sm font-medium' : 'font-medium'}>{option.label}</span>
              <span className={compact ? 'text-xs text-slate-600' : 'text-sm text-slate-600'}>{option.detail}</span>
            </span>
          </label>
        ))}
      </div>
      <ErrorText id={errorId} message={error} />
    </fieldset>
  )
}

export function SubmitButton({ children }: { children: React.ReactNode }) {
  return (
    <button
      type="submit"
      className="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
    >
      {children}
    </button>
  )
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {message}
    </p>
  )
}

/** First message per field, from a zod error's issues. */
export function fieldErrors(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form')
    errors[key] ??= issue.message
  }
  return errors
}
