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
