// A titled list of the account's things (keys, webhook endpoints, feeds): the items, or a line that
// says there are none. Each item renders its own <li>.
import type { ReactNode } from 'react'

export function ListSection<T>(props: {
  id: string
  title: string
  empty: string
  items: T[]
  children: (item: T) => ReactNode
}) {
  const headingId = `${props.id}-heading`
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="mb-3 font-semibold">
        {props.title}
      </h2>
      {props.items.length === 0 ? (
        <p className="text-slate-600">{props.empty}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {props.items.map(props.children)}
        </ul>
      )}
    </section>
  )
}
