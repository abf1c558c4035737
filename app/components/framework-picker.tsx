// Choosing a research framework. Server-rendered (and without JavaScript) it is a plain <select>
// grouped by category; once hydrated it becomes a filterable list of radio buttons that shows each
// framework's description. The value always travels in a field named frameworkId.
import { useEffect, useId, useState } from 'react'

export type FrameworkOption = { id: string; name: string; category: string; description: string }

const fieldClass =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-invalid:border-red-600'

export function FrameworkPicker({
  frameworks,
  categories,
  defaultValue = '',
  error,
}: {
  frameworks: readonly FrameworkOption[]
  categories: readonly string[]
  defaultValue?: string
  error?: string
}) {
  const [enhanced, setEnhanced] = useState(false)
  const [selected, setSelected] = useState(defaultValue)
  const [query, setQuery] = useState('')
  useEffect(() => setEnhanced(true), [])
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hintId, error ? errorId : ''].filter(Boolean).join(' ')
  const chosen = frameworks.find((framework) => framework.id === selected)

  const hint = (
    <p id={hintId} className="text-xs text-slate-500">
      Optional. A structured lens for the plan and the report; the “Framework sections” style needs one.
    </p>
  )
  const errorMessage = error ? (
    <p id={errorId} className="text-sm text-red-700">
      {error}
    </p>
  ) : null

  if (!enhanced) {
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-select`} className="text-sm font-medium text-slate-800">
          Research framework
        </label>
        <select
          id={`${id}-select`}
          name="frameworkId"
          defaultValue={defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={fieldClass}
        >
          <option value="">No framework</option>
          {categories.map((category) => (
            <optgroup key={category} label={categoryLabel(category)}>
              {frameworks
                .filter((framework) => framework.category === category)
                .map((framework) => (
                  <option key={framework.id} value={framework.id} title={framework.description}>
                    {framework.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        {hint}
        {errorMessage}
      </div>
    )
  }

  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const matches = frameworks.filter((framework) => {
    const text = `${framework.id} ${framework.name} ${framework.category} ${framework.description}`.toLowerCase()
    return words.every((word) => text.includes(word))
  })
  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium text-slate-800">
        Research framework
      </span>
      {hint}
      <input type="hidden" name="frameworkId" value={selected} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-filter`} className="text-sm text-slate-700">
          Filter frameworks
        </label>
        <input
          id={`${id}-filter`}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          // Enter here means "done filtering", not "start the research".
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.preventDefault()
          }}
          placeholder="e.g. pricing, risk, porter"
          autoComplete="off"
          aria-controls={`${id}-options`}
          aria-describedby={`${id}-count`}
          className={fieldClass}
        />
        <p id={`${id}-count`} aria-live="polite" className="text-xs text-slate-500">
          {words.length === 0
            ? `${frameworks.length} frameworks`
            : `${matches.length} of ${frameworks.length} frameworks match`}
        </p>
      </div>
      <p className="text-sm text-slate-700">
        Selected: <strong className="font-medium">{chosen ? chosen.name : 'no framework'}</strong>
        {chosen ? (
          <button
            type="button"
            onClick={() => setSelected('')}
            className="ml-2 rounded text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-700"
          >
            Clear
          </button>
        ) : null}
      </p>
      <div
        id={`${id}-options`}
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="relative max-h-80 overflow-y-auto rounded-md border border-slate-300 bg-white aria-invalid:border-red-600"
      >
        <FrameworkRadio
          name={`${id}-choice`}
          value=""
          label="No framework"
          checked={selected === ''}
          onSelect={setSelected}
        />
        {categories.map((category) => {
          const inCategory = matches.filter((framework) => framework.category === category)
          if (inCategory.length === 0) return null
          return (
            <fieldset key={category} className="border-t border-slate-200">
              <legend className="sr-only">{categoryLabel(category)}</legend>
              <p
                aria-hidden="true"
                className="sticky top-0 bg-slate-100 px-3 py-1 text-xs font-semibold tracking-wide text-slate-600 uppercase"
              >
                {categoryLabel(category)}
              </p>
              {inCategory.map((framework) => (
                <FrameworkRadio
                  key={framework.id}
                  name={`${id}-choice`}
                  value={framework.id}
                  label={framework.name}
                  description={framework.description}
                  checked={selected === framework.id}
                  onSelect={setSelected}
                />
              ))}
            </fieldset>
          )
        })}
        {matches.length === 0 ? (
          <p className="px-3 py-2 text-sm text-slate-600">No framework matches “{query}”.</p>
        ) : null}
      </div>
      {errorMessage}
    </div>
  )
}

function FrameworkRadio(props: {
  name: string
  value: string
  label: string
  description?: string
  checked: boolean
  onSelect: (value: string) => void
}) {
  return (
    <label className="flex cursor-pointer gap-3 px-3 py-2 hover:bg-slate-50 has-checked:bg-indigo-50 has-focus-visible:outline-2 has-focus-visible:-outline-offset-2 has-focus-visible:outline-indigo-700">
      <input
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={() => props.onSelect(props.value)}
        className="mt-1 accent-indigo-700"
      />
      <span className="flex flex-col">
        <span className="text-sm font-medium text-slate-900">{props.label}</span>
        {props.description ? <span className="text-xs text-slate-600">{props.description}</span> : null}
      </span>
    </label>
  )
}

function categoryLabel(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1)
}
